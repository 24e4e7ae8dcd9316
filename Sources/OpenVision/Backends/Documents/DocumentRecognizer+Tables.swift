import Foundation

extension DocumentRecognizer {
    /// A table found on the page.
    struct RecognizedTable {
        var table: DocumentObservation.Container.Table
        /// Its region on the level page.
        var box: PageBox
        /// The lines in its cells, cell by cell (row by row).
        var lines: [Int]
        var confidence: Float
    }

    /// The tables of the layout's table regions (the more confident of two that overlap by more than half), each
    /// read by SLANet-plus on its crop of the level page, its cells filled with the lines whose centre falls in the
    /// region (`TableTextMatcher`); and the lines that went into a cell. A region whose structure has no cell is no
    /// table (its lines stay text).
    func tables(regions: [DocumentLayoutDetector.Region], lines: [Line], page: UprightPage) throws(VisionError)
        -> ([RecognizedTable], Set<Int>)
    {
        var accepted: [PageBox] = []
        for region in regions.filter({ $0.label == "table" }).sorted(by: { $0.confidence > $1.confidence }) {
            let b = region.box
            let overlapping = accepted.contains { $0.intersectionArea(b) > 0.5 * min($0.area, b.area) }
            if !overlapping { accepted.append(b) }
        }
        guard !accepted.isEmpty else { return ([], []) }
        let recognizer = try TableStructureRecognizer.installed()
        var tables: [RecognizedTable] = []
        var used = Set<Int>()
        for region in accepted {
            // rapid-table's crop, `img[y0:y1, x0:x1]` of the layout box's integer parts.
            let x0 = Int(region.x0)
            let y0 = Int(region.y0)
            let x1 = min(Int(region.x1), page.image.width)
            let y1 = min(Int(region.y1), page.image.height)
            guard x1 - x0 >= 2, y1 - y0 >= 2 else { continue }
            let W = Double(page.image.width)
            let H = Double(page.image.height)
            let crop = try page.image.cropped(
                to: NormalizedRect(
                    x: Double(x0) / W, y: 1 - Double(y1) / H,
                    width: Double(x1 - x0) / W, height: Double(y1 - y0) / H))
            let structure = try recognizer.structure(of: crop)
            guard !structure.cells.isEmpty else { continue }
            let ox = Double(x0)
            let oy = Double(y0)
            let cw = Double(crop.width)
            let ch = Double(crop.height)
            // The lines in the region, as rapid-table's OCR boxes: one pixel wider on each side, clipped to the crop.
            let inside = lines.indices.filter { k in
                let c = lines[k].box
                return !used.contains(k) && c.midX >= region.x0 && c.midX <= region.x1 && c.midY >= region.y0
                    && c.midY <= region.y1
            }
            let textBoxes = inside.map { k -> PageBox in
                let b = lines[k].box
                return PageBox(
                    x0: max(0, b.x0 - ox - 1), y0: max(0, b.y0 - oy - 1), x1: min(cw, b.x1 - ox + 1),
                    y1: min(ch, b.y1 - oy + 1))
            }
            let assigned = TableTextMatcher.match(texts: textBoxes, cells: structure.cells.map(\.box))
            let read = structure.cells.indices.map { j in
                (structure.cells[j].rows, structure.cells[j].columns, structure.cells[j].box, assigned[j])
            }
            let grid = try Self.withRulings(read, in: crop)
            var cells: [DocumentObservation.Container.Table.Cell] = []
            var order: [(Int, Int, [Int])] = []
            for cell in grid {
                let members = cell.members.map { inside[$0] }
                let b = cell.box
                let box = PageBox(x0: b.x0 + ox, y0: b.y0 + oy, x1: b.x1 + ox, y1: b.y1 + oy)
                let text = DocumentObservation.Container.Text(
                    lines: members.map { lines[$0].observation }, boundingRegion: page.region(box),
                    separators: Self.separators(members.map { lines[$0].box }))
                cells.append(
                    .init(
                        rowRange: cell.rows, columnRange: cell.columns,
                        content: DocumentObservation.Container(
                            text: text, paragraphs: members.isEmpty ? [] : [text],
                            boundingRegion: page.region(box))))
                order.append((cell.rows.lowerBound, cell.columns.lowerBound, members))
                used.formUnion(members)
            }
            let cellLines = order.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.flatMap(\.2)
            tables.append(
                RecognizedTable(
                    table: .init(cells: cells, boundingRegion: page.region(region)), box: region,
                    lines: cellLines, confidence: structure.confidence))
        }
        return (tables, used)
    }

    /// `cells` with the boundaries the crop draws no line across merged (`TableRulings`).
    static func withRulings(_ cells: [TableRulings.Cell], in crop: VisionImage) throws(VisionError)
        -> [TableRulings.Cell]
    {
        let (w, h) = (crop.width, crop.height)
        return try crop.withGrayPixels { gray, stride in
            var histogram = [Int](repeating: 0, count: 256)
            for y in 0..<h {
                for x in 0..<w { histogram[Int(gray[y * stride + x])] += 1 }
            }
            var seen = 0
            var median: UInt8 = 255
            for (value, count) in histogram.enumerated() {
                seen += count
                if 2 * seen >= w * h {
                    median = UInt8(value)
                    break
                }
            }
            return TableRulings.merged(cells) { a, b, right in
                TableRulings.lineShare(
                    gray: gray, stride: stride, width: w, height: h, median: median, a: a, b: b, right: right)
            }
        }
    }

    /// What joins consecutive pieces of a cell's text: a space between pieces on the same row (rapid-table joins
    /// every piece with one), a line break between rows.
    static func separators(_ boxes: [PageBox]) -> [Character] {
        zip(boxes, boxes.dropFirst()).map { a, b in
            let overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
            return overlap > 0.5 * min(a.height, b.height) ? " " : "\n"
        }
    }
}
