import Foundation
import Testing

@testable import OpenVision

/// The documents pipeline's rules, each held to the Python it reproduces (rapid-table 0.3.0's `TableMatch`) or to
/// written cases (lists, reading order, data detection).
@Suite struct DocumentRulesTests {
    /// rapid-table's `decode_logic_points` on a structure with two row spans and two column spans:
    /// `from rapid_table.table_matcher import TableMatch; print(TableMatch().decode_logic_points(tokens))` →
    /// [[0,1,0,0],[0,0,1,2],[0,1,3,3],[1,1,1,1],[1,1,2,2],[2,2,0,0],[2,2,1,2],[2,2,3,3]] (row0, row1, col0, col1).
    @Test func logicPointsAsRapidTable() {
        let tokens = [
            "<tr>", "<td", " rowspan=\"2\"", ">", "</td>", "<td", " colspan=\"2\"", ">", "</td>", "<td",
            " rowspan=\"2\"", ">",
            "</td>", "</tr>", "<tr>", "<td></td>", "<td></td>", "</tr>", "<tr>", "<td></td>", "<td", " colspan=\"2\"",
            ">",
            "</td>", "<td></td>", "</tr>",
        ]
        let points = TableStructureRecognizer.logicPoints(tokens).map {
            [
                $0.rows.lowerBound, $0.rows.upperBound, $0.columns.lowerBound,
                $0.columns.upperBound,
            ]
        }
        #expect(
            points == [
                [0, 1, 0, 0], [0, 0, 1, 2], [0, 1, 3, 3], [1, 1, 1, 1], [1, 1, 2, 2], [2, 2, 0, 0], [2, 2, 1, 2],
                [2, 2, 3, 3],
            ])
    }

    /// rapid-table's `TableMatch` on four cells and six text boxes (one above the table, dropped; two in one cell):
    /// `tm._filter_ocr_result` then `tm.match_result` → {0: [0], 1: [1], 2: [2], 3: [3, 4]}; a box overlapping no cell
    /// goes to the nearest (cell 3), one straddling two cells equally to the first (cell 0): {3: [0], 0: [1]}.
    @Test func textMatchingAsRapidTable() {
        let cells = [
            PageBox(x0: 0, y0: 0, x1: 100, y1: 50), PageBox(x0: 100, y0: 0, x1: 200, y1: 50),
            PageBox(x0: 0, y0: 50, x1: 100, y1: 100), PageBox(x0: 100, y0: 50, x1: 200, y1: 100),
        ]
        let texts = [
            PageBox(x0: 10, y0: 10, x1: 60, y1: 40), PageBox(x0: 110, y0: 8, x1: 190, y1: 42),
            PageBox(x0: 5, y0: 55, x1: 95, y1: 95), PageBox(x0: 120, y0: 60, x1: 150, y1: 90),
            PageBox(x0: 150, y0: 60, x1: 199, y1: 90), PageBox(x0: -5, y0: -30, x1: 50, y1: -2),
        ]
        #expect(TableTextMatcher.match(texts: texts, cells: cells) == [[0], [1], [2], [3, 4]])
        let far = [PageBox(x0: 300, y0: 300, x1: 310, y1: 310), PageBox(x0: 95, y0: 20, x1: 105, y1: 30)]
        #expect(TableTextMatcher.match(texts: far, cells: cells) == [[1], [], [], [0]])
        #expect(TableTextMatcher.join(["New", " York"]) == "New York")
        #expect(TableTextMatcher.join(["<b>Total</b>", "42"]) == "Total 42")
    }

    /// The line measure on a 40 × 20 white image: a black column at x = 20 is a line across the whole boundary between
    /// two cells that meet there, no column is none; boxes outside the image or not finite measure 0, without a trap.
    @Test func lineShareFindsADrawnColumn() {
        var pixels = [UInt8](repeating: 255, count: 40 * 20)
        let a = PageBox(x0: 0, y0: 0, x1: 20, y1: 20)
        let b = PageBox(x0: 20, y0: 0, x1: 40, y1: 20)
        func share(_ a: PageBox, _ b: PageBox) -> Double {
            pixels.withUnsafeBufferPointer {
                TableRulings.lineShare(
                    gray: $0.baseAddress!, stride: 40, width: 40, height: 20, median: 255, a: a, b: b, right: true)
            }
        }
        #expect(share(a, b) == 0)
        for y in 0..<20 { pixels[y * 40 + 20] = 0 }
        #expect(share(a, b) == 1)
        #expect(share(PageBox(x0: 0, y0: 0, x1: .nan, y1: 20), b) == 0)
        #expect(
            share(PageBox(x0: -1e30, y0: -1e30, x1: 1e30, y1: 1e30), PageBox(x0: 1e30, y0: -5, x1: 2e30, y1: 1e30)) == 0
        )
    }

    /// Rulings: in a ruled 3 × 3 table where row 1's middle and right cells have no line between them and the right
    /// one is empty, the middle cell takes it in (columns 1...2); the same boundary drawn, or a table with no rulings,
    /// keeps the grid as read; an open boundary below a cell with text merges rows.
    @Test func openBoundariesMergeInARuledTable() {
        func cell(_ r: Int, _ c: Int, text: Bool = true) -> TableRulings.Cell {
            (
                r...r, c...c,
                PageBox(x0: Double(100 * c), y0: Double(40 * r), x1: Double(100 * c + 100), y1: Double(40 * r + 40)),
                text ? [3 * r + c] : []
            )
        }
        let grid = (0..<3).flatMap { r in (0..<3).map { c in cell(r, c, text: !(r == 1 && c == 2)) } }
        func isOpen(_ a: PageBox, _ b: PageBox, _ right: Bool) -> Bool { right && a.y0 == 40 && a.x0 == 100 }
        let merged = TableRulings.merged(grid) { a, b, right in isOpen(a, b, right) ? 0.1 : 0.95 }
        #expect(merged.count == 8)
        let wide = merged.first { $0.rows == 1...1 && $0.columns.lowerBound == 1 }
        #expect(wide?.columns == 1...2 && wide?.members == [4])
        #expect(wide?.box == PageBox(x0: 100, y0: 40, x1: 300, y1: 80))
        #expect(TableRulings.merged(grid) { _, _, _ in 0.95 }.count == 9)
        #expect(TableRulings.merged(grid) { _, _, _ in 0 }.count == 9)
        // Below: row 2's left cell empty, no line between it and row 1's.
        let tall = (0..<3).flatMap { r in (0..<3).map { c in cell(r, c, text: !(r == 2 && c == 0)) } }
        let down = TableRulings.merged(tall) { a, _, right in !right && a.x0 == 0 && a.y0 == 40 ? 0 : 0.9 }
        #expect(down.count == 8)
        #expect(down.first { $0.columns == 0...0 && $0.rows.lowerBound == 1 }?.rows == 1...2)
    }

    @Test func typedListMarkers() throws {
        let cases: [(String, DocumentObservation.Container.List.Marker, String, String)] = [
            ("• Open two stores", .bullet, "•", "Open two stores"),
            ("●Hire", .bullet, "●", "Hire"),
            ("- Check the pumps", .hyphen, "-", "Check the pumps"),
            ("– dash", .hyphen, "–", "dash"),
            ("1. Bring a notebook", .decimal, "1.", "Bring a notebook"),
            ("2)Arrive early", .decimal, "2)", "Arrive early"),
            ("(3) Return books", .decimal, "(3)", "Return books"),
            ("1.2 Scope", .compositeDecimal, "1.2", "Scope"),
            ("1.2.3 terms", .compositeDecimal, "1.2.3", "terms"),
            ("2.1. overview", .compositeDecimal, "2.1.", "overview"),
            ("① first", .decorativeDecimal, "①", "first"),
            ("a. apples", .lowercaseLatin, "a.", "apples"),
            ("B) Bananas", .uppercaseLatin, "B)", "Bananas"),
        ]
        for (text, kind, marker, rest) in cases {
            let found = try #require(DocumentListRules.typedMarker(text), "\(text)")
            #expect(found.0 == kind && found.1 == marker && found.2 == rest, "\(text): \(found)")
        }
        for text in [
            "3.14 is pi", "2.5 kg of flour", "10.5 %", "2024. A year", "+1 415 555 0101", "Region", "42", "-5 degrees",
        ] {
            #expect(DocumentListRules.typedMarker(text) == nil, "\(text)")
        }
    }

    /// Two columns under a heading read column by column; a full-width block under both comes last.
    @Test func readingOrderTakesColumnsFirst() {
        func unit(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ id: Int) -> ReadingOrder.Unit {
            ReadingOrder.Unit(
                box: PageBox(x0: x0, y0: y0, x1: x1, y1: y1),
                kind: .block(.init(lines: [id], box: PageBox(x0: x0, y0: y0, x1: x1, y1: y1))))
        }
        let units = [
            unit(900, 200, 1600, 300, 3), unit(80, 70, 700, 130, 0), unit(80, 380, 800, 460, 2),
            unit(80, 200, 800, 330, 1),
            unit(900, 330, 1500, 480, 4), unit(80, 600, 1600, 700, 5),
        ]
        let order = ReadingOrder.sorted(units).map { unit -> Int in
            if case .block(let b) = unit.kind { return b.lines[0] }
            return -1
        }
        #expect(order == [0, 1, 2, 3, 4, 5])
    }

    @Test func dataDetection() throws {
        var options = DataDetector.Options()
        options.documentTimeZone = TimeZone(identifier: "UTC")
        options.documentDate = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14
        let text =
            "Write to ada@example.com or see https://example.org/docs.\nCall +1 415 555 0101 or (212) 555-0199 by 2024-03-15.\n"
            + "Units 1200 and 48000; the meeting is on March 5 at 3:30 pm, the fair 15 Mar 2025, www.swift.org, 03/04/2025."
        let matches = DataDetector.matches(in: text, types: .all, options: options)
        let found = matches.map { String(text[$0.range!]) }
        #expect(
            found == [
                "ada@example.com", "https://example.org/docs", "+1 415 555 0101", "(212) 555-0199", "2024-03-15",
                "March 5 at 3:30 pm", "15 Mar 2025", "www.swift.org", "03/04/2025",
            ])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for match in matches {
            switch match.details {
            case .emailAddress(let e): #expect(e.emailAddress == "ada@example.com")
            case .link(let l):
                #expect(["https://example.org/docs", "http://www.swift.org"].contains(l.url.absoluteString))
            case .phoneNumber(let p): #expect(p.phoneNumber.filter(\.isNumber).count >= 10)
            case .calendarEvent(let c):
                let d = try #require(c.startDate)
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: d)
                let written = String(text[match.range!])
                switch written {
                case "2024-03-15": #expect((parts.year, parts.month, parts.day, c.allDay) == (2024, 3, 15, true))
                case "March 5 at 3:30 pm":
                    #expect(
                        (parts.year, parts.month, parts.day, parts.hour, parts.minute, c.allDay) == (
                            2023, 3, 5, 15, 30, false
                        ))
                case "15 Mar 2025": #expect((parts.year, parts.month, parts.day) == (2025, 3, 15))
                case "03/04/2025": #expect((parts.month, parts.day) == (3, 4))  // month first when ambiguous
                default: Issue.record("unexpected date \(written)")
                }
            }
        }
        #expect(DataDetector.matches(in: "1200 48000 950 38000", types: .all, options: options).isEmpty)
        // no 31 February
        #expect(DataDetector.matches(in: "31/02/2024", types: .calendarEvent, options: options).isEmpty)
    }

    @Test func dataDetectorMatchesAsyncSequence() async {
        var found: [String] = []
        let text = "Mail grace@example.net today"
        for await match in text.dataDetectorMatches(.emailAddress) { found.append(String(text[match.range!])) }
        #expect(found == ["grace@example.net"])
    }

    /// A page's angle: a quarter turn from the lines' orientation, plus their median skew.
    @Test func uprightPageFollowsTheLines() throws {
        let image = try ImageCanvas(width: 400, height: 300).makeImage()
        func line(_ degrees: Double, orientation: ImageOrientation) -> RecognizedTextObservation {
            let r = degrees * .pi / 180
            let a = NormalizedPoint(x: 0.2, y: 0.5)
            let b = NormalizedPoint(x: 0.2 + 0.5 * cos(r), y: 0.5 - 0.5 * sin(r) * 400 / 300)
            var o = RecognizedTextObservation(topLeft: a, topRight: b, bottomRight: b, bottomLeft: a, candidates: [])
            o.textOrientation = orientation
            return o
        }
        let skewed = try UprightPage(
            image: image, lines: [line(3, orientation: .up), line(2.5, orientation: .up), line(40, orientation: .up)])
        #expect(abs(skewed.angle - 2.5) < 0.6)
        let quarter = try UprightPage(image: image, lines: [line(90, orientation: .left)])
        #expect(abs(quarter.angle - 90) < 1e-6 && quarter.image.width == 300 && quarter.image.height == 400)
        // The upright page's top-left corner is the given image's top-right one (a page turned 90° clockwise).
        let corner = quarter.given(0, 0)
        #expect(abs(corner.0 - 400) < 1e-6 && abs(corner.1 - 0) < 1e-6)
        let level = try UprightPage(image: image, lines: [])
        #expect(level.angle == 0 && level.image === image)
    }
}
