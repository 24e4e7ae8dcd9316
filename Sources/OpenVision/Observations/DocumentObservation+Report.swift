import Foundation

/// Documents in the report (`documents`).
extension AnalysisReport {
    /// One document (`RecognizeDocumentsRequest`): its title, paragraphs, lists and tables in reading order, all its
    /// text, and the data found in it. Boxes are the boxes around the regions (on a page read turned, the regions
    /// themselves are turned quadrilaterals).
    public struct Document: Sendable, Codable, Hashable {
        /// A paragraph, a list item or a table cell's text.
        public struct TextBlock: Sendable, Codable, Hashable {
            /// The text, lines joined with spaces.
            public var text: String
            /// The box around it (normalised, lower-left origin, and in pixels).
            public var box: Box
        }

        /// A list and its items.
        public struct List: Sendable, Codable, Hashable {
            /// One item: its text without its marker, the marker as written, and the marker's kind (bullet, hyphen,
            /// decimal, compositeDecimal, decorativeDecimal, lowercaseLatin, uppercaseLatin).
            public struct Item: Sendable, Codable, Hashable {
                /// The item's text, without its marker.
                public var text: String
                /// The marker as written ("•", "3.", "b)"), empty when the item has none.
                public var marker: String
                /// The marker's kind; nil when it has none.
                public var markerType: String?
                /// The box around the item.
                public var box: Box
            }

            /// The items, top to bottom.
            public var items: [Item]
            /// The box around the whole list.
            public var box: Box
        }

        /// A table: its size in rows and columns, and each cell once with where it starts and how far it spans.
        public struct Table: Sendable, Codable, Hashable {
            /// One cell, where it starts and how far it spans.
            public struct Cell: Sendable, Codable, Hashable {
                /// 0-based row the cell starts at.
                public var row: Int
                /// 0-based column the cell starts at.
                public var column: Int
                /// Rows it covers (1 or more).
                public var rowSpan: Int
                /// Columns it covers (1 or more).
                public var columnSpan: Int
                /// Its text ("" for an empty cell).
                public var text: String
                /// The box around the cell.
                public var box: Box
            }

            /// Rows in the table.
            public var rows: Int
            /// Columns in the table.
            public var columns: Int
            /// Every cell once, row by row.
            public var cells: [Cell]
            /// The box around the table.
            public var box: Box
        }

        /// A piece of data in the document's text.
        public struct DetectedData: Sendable, Codable, Hashable {
            /// emailAddress, link, phoneNumber or calendarEvent.
            public var type: String
            /// The text as written.
            public var text: String
            /// The value: the address, the URL, the number as written, the date (ISO 8601, with the time when given).
            public var value: String
            /// The box around the text.
            public var box: Box
        }

        /// The mean confidence of the page's recognised lines, 0...1.
        public var confidence: Float
        /// The title's text (absent when the page has none).
        public var title: String?
        /// The box around the title, when there is one.
        public var titleBox: Box?
        /// The paragraphs in reading order (columns first, then top to bottom).
        public var paragraphs: [TextBlock]
        /// The lists in reading order.
        public var lists: [List]
        /// The tables in reading order.
        public var tables: [Table]
        /// All the text in reading order (lines joined with line breaks).
        public var text: String
        /// Email addresses, links, phone numbers and dates found in the text.
        public var detectedData: [DetectedData]
        /// The barcodes' payloads (see `barcodes` for the whole observations from `DetectBarcodesRequest`).
        public var barcodes: [String]
        /// The box around the document on the page.
        public var box: Box
    }

    /// Adds documents.
    public mutating func add(_ observations: [DocumentObservation]) {
        documents = observations.map(document)
    }

    func document(_ observation: DocumentObservation) -> Document {
        let d = observation.document
        func block(_ text: DocumentObservation.Container.Text) -> Document.TextBlock {
            Document.TextBlock(text: text.transcript, box: box(text.boundingRegion.boundingBox))
        }
        let data = d.text.detectedData.map { found in
            let range = found.match.range ?? d.text.transcript.startIndex..<d.text.transcript.startIndex
            let (type, value): (String, String) =
                switch found.match.details {
                case .emailAddress(let e): ("emailAddress", e.emailAddress)
                case .link(let l): ("link", l.url.absoluteString)
                case .phoneNumber(let p): ("phoneNumber", p.phoneNumber)
                case .calendarEvent(let c):
                    ("calendarEvent", c.startDate.map { Self.isoDate($0, allDay: c.allDay) } ?? "")
                }
            return Document.DetectedData(
                type: type, text: String(d.text.transcript[range]), value: value,
                box: box(found.boundingRegion.boundingBox))
        }
        return Document(
            confidence: observation.confidence, title: d.title?.transcript,
            titleBox: d.title.map { box($0.boundingRegion.boundingBox) },
            paragraphs: d.paragraphs.map(block),
            lists: d.lists.map { list in
                Document.List(
                    items: list.items.map {
                        Document.List.Item(
                            text: $0.itemString, marker: $0.markerString, markerType: $0.markerType?.rawValue,
                            box: box($0.content.boundingRegion.boundingBox))
                    }, box: box(list.boundingRegion.boundingBox))
            },
            tables: d.tables.map { table in
                Document.Table(
                    rows: table.rowCount, columns: table.columnCount,
                    cells: table.cells.map { cell in
                        Document.Table.Cell(
                            row: cell.rowRange.lowerBound, column: cell.columnRange.lowerBound,
                            rowSpan: cell.rowRange.count, columnSpan: cell.columnRange.count,
                            text: cell.content.text.transcript, box: box(cell.content.boundingRegion.boundingBox))
                    }, box: box(table.boundingRegion.boundingBox))
            },
            text: d.text.transcript, detectedData: data, barcodes: d.barcodes.compactMap(\.payloadString),
            box: box(d.boundingRegion.boundingBox))
    }

    /// A date as ISO 8601 in the current time zone: the day alone for an all-day date.
    static func isoDate(_ date: Date, allDay: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        formatter.formatOptions =
            allDay ? [.withFullDate] : [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        return formatter.string(from: date)
    }

    /// `text` on one line (line breaks as spaces), cut to `limit` characters with "…".
    static func oneLine(_ text: String, limit: Int = 80) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }

    static func summary(documents: [Document]) -> [String] {
        documents.flatMap { d -> [String] in
            var lines = [
                String(format: "  document %.2f: ", d.confidence)
                    + "\(d.paragraphs.count) paragraphs, \(d.lists.count) lists, "
                    + "\(d.tables.count) tables " + at(d.box)
            ]
            if let title = d.title { lines.append("  document title \"\(title)\"") }
            for paragraph in d.paragraphs {
                lines.append("  document paragraph \"\(oneLine(paragraph.text))\" " + at(paragraph.box))
            }
            for list in d.lists {
                lines.append("  document list of \(list.items.count) items " + at(list.box))
                lines += list.items.map { "    \($0.marker) \(oneLine($0.text))" }
            }
            for table in d.tables {
                lines.append(
                    "  document table \(table.rows)×\(table.columns), \(table.cells.count) cells " + at(table.box))
                // One line per row, its cells' texts between bars (a cell spanning rows is on its first row).
                for row in 0..<table.rows {
                    let cells = table.cells.filter { $0.row == row }.sorted { $0.column < $1.column }
                    lines.append("    | " + cells.map { oneLine($0.text, limit: 30) }.joined(separator: " | ") + " |")
                }
            }
            for item in d.detectedData { lines.append("  document \(item.type) \"\(item.text)\" → \(item.value)") }
            return lines
        }
    }
}

extension DocumentObservation: ReportableObservation {
    /// Puts the documents into the report under `documents`.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// The title, paragraphs, lists and their items, and each table with the grid of its cells.
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension OverlayItem {
    /// A document's parts: the title (purple), paragraphs (blue), lists (green, with their items), and tables (orange,
    /// every cell outlined: the table's grid).
    public static func items(for document: DocumentObservation) -> [OverlayItem] {
        let d = document.document
        func outline(_ region: NormalizedRegion, _ color: OverlayColor, _ label: String?, width: Double = 3)
            -> OverlayItem
        {
            OverlayItem(shape: .polygon(region.points, closed: true), color: color, label: label, lineWidth: width)
        }
        var items: [OverlayItem] = []
        if let title = d.title { items.append(outline(title.boundingRegion, .purple, "title")) }
        items += d.paragraphs.map { outline($0.boundingRegion, .blue, nil, width: 2) }
        for list in d.lists {
            items.append(outline(list.boundingRegion, .green, "list \(list.items.count)"))
            items += list.items.map { outline($0.content.boundingRegion, .green, nil, width: 1) }
        }
        for table in d.tables {
            items += table.cells.map { outline($0.content.boundingRegion, .orange, nil, width: 1) }
            items.append(outline(table.boundingRegion, .orange, "table \(table.rowCount)×\(table.columnCount)"))
        }
        return items
    }
}
