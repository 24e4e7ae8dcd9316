import Foundation
import OpenVision

/// Rendered pages of known structure for `RecognizeDocumentsRequest`'s tests, shared with `openvision-bench
/// make-page-set` so that the Python peer (rapid-layout + rapid-table + rapidocr) reads the very same pixels: a
/// report (heading, paragraph, bulleted list, 4 × 3 table, as `../shared/checks/catalogue3` draws it), a timetable with
/// merged cells and a numbered list, two columns with a dashed list, and a contact table (Apple's "Recognize tables
/// within a document" sample's use).
public enum DocumentPageScenes {
    /// What a page holds.
    public struct Truth: Sendable, Codable, Hashable {
        public struct Cell: Sendable, Codable, Hashable {
            public var row: Int, column: Int, rowSpan: Int, columnSpan: Int
            public var text: String

            /// A cell at (`row`, `column`), 0-based, spanning `rowSpan` × `columnSpan`, reading `text`.
            public init(row: Int, column: Int, rowSpan: Int, columnSpan: Int, text: String) {
                (self.row, self.column, self.rowSpan, self.columnSpan, self.text) = (
                    row, column, rowSpan, columnSpan, text
                )
            }
        }

        public struct Table: Sendable, Codable, Hashable {
            public var rows: Int, columns: Int
            public var cells: [Cell]
        }

        public var title: String?
        /// The paragraphs' texts, in reading order.
        public var paragraphs: [String]
        /// Each list's items, without markers.
        public var lists: [[String]]
        public var tables: [Table]
    }

    /// A page: its name, truth and how to draw it.
    public struct Scene: Sendable {
        public let name: String
        public let truth: Truth
        public let make: @Sendable () throws -> VisionImage
    }

    static let sans = OCRScenes.fontDirectory + "DejaVuSans.ttf"
    static let bold = OCRScenes.fontDirectory + "DejaVuSans-Bold.ttf"
    static let ink = Fixtures.grayColor(0)

    /// Text `size` px tall with its top-left near (x, y) (DejaVu's ascent is about 0.93 of the size).
    static func write(_ text: String, _ canvas: inout ImageCanvas, x: Int, y: Int, size: Int, font: String = sans)
        throws
    {
        try canvas.text(
            text, at: CGPoint(x: x, y: y + Int(Double(size) * 0.93)), fontFile: font, pixelHeight: size, color: ink)
    }

    /// A ruled table at (x0, y0): rows of `rowHeight`, columns of `widths`; `cells` (row, column, rowSpan, columnSpan,
    /// text) drawn with their borders, header row (row 0) bold.
    static func table(
        _ cells: [Truth.Cell], on canvas: inout ImageCanvas, x0: Int, y0: Int, widths: [Int], rowHeight: Int,
        size: Int = 28
    ) throws {
        let xs = widths.reduce(into: [x0]) { $0.append($0.last! + $1) }
        for cell in cells {
            let left = xs[cell.column]
            let right = xs[cell.column + cell.columnSpan]
            let top = y0 + cell.row * rowHeight
            let bottom = y0 + (cell.row + cell.rowSpan) * rowHeight
            try canvas.stroke(
                polyline: [
                    CGPoint(x: left, y: top), CGPoint(x: right, y: top), CGPoint(x: right, y: bottom),
                    CGPoint(x: left, y: bottom),
                ], closed: true, color: ink, lineWidth: 3)
            try write(
                cell.text, &canvas, x: left + 18, y: (top + bottom) / 2 - size / 2 - 2, size: size,
                font: cell.row == 0 ? bold : sans)
        }
    }

    static func grid(_ rows: [[String]]) -> [Truth.Cell] {
        rows.enumerated().flatMap { r, row in
            row.enumerated().map { Truth.Cell(row: r, column: $0, rowSpan: 1, columnSpan: 1, text: $1) }
        }
    }

    /// The report: `../shared/checks/catalogue3`'s documents page.
    static let reportTruth = Truth(
        title: "Quarterly Report", paragraphs: ["Sales grew in every region this quarter, led by the north."],
        lists: [["Open two new stores", "Hire five engineers", "Ship the mobile app"]],
        tables: [
            Truth.Table(
                rows: 4, columns: 3,
                cells: grid([
                    ["Region", "Units", "Revenue"], ["North", "1200", "48000"],
                    ["South", "950", "38000"], ["West", "700", "28000"],
                ]))
        ])
    public static let report = Scene(name: "report", truth: reportTruth) {
        var c = try Fixtures.canvas(width: 1240, height: 1754)
        try write("Quarterly Report", &c, x: 100, y: 90, size: 56, font: bold)
        try write("Sales grew in every region this quarter, led by the north.", &c, x: 100, y: 200, size: 30)
        for (i, item) in ["Open two new stores", "Hire five engineers", "Ship the mobile app"].enumerated() {
            let y = 300 + i * 55
            try c.dot(at: CGPoint(x: 117, y: y + 19), radius: 7, color: ink)
            try write(item, &c, x: 145, y: y, size: 30)
        }
        try table(
            reportTruth.tables[0].cells, on: &c, x0: 100, y0: 560, widths: [330, 330, 330], rowHeight: 80, size: 30)
        return c.makeImage()
    }

    /// A timetable with merged cells (a header over two columns, two headers over two rows, a cell over two
    /// columns) and a numbered list.
    static let timetableTruth = Truth(
        title: "Course Schedule", paragraphs: ["Rooms open at eight and close at six every weekday."],
        lists: [["Bring a notebook", "Arrive ten minutes early", "Return books on Friday"]],
        tables: [
            Truth.Table(
                rows: 5, columns: 4,
                cells: [
                    .init(row: 0, column: 0, rowSpan: 2, columnSpan: 1, text: "Day"),
                    .init(row: 0, column: 1, rowSpan: 1, columnSpan: 2, text: "Morning"),
                    .init(row: 0, column: 3, rowSpan: 2, columnSpan: 1, text: "Evening"),
                    .init(row: 1, column: 1, rowSpan: 1, columnSpan: 1, text: "Lab"),
                    .init(row: 1, column: 2, rowSpan: 1, columnSpan: 1, text: "Lecture"),
                    .init(row: 2, column: 0, rowSpan: 1, columnSpan: 1, text: "Monday"),
                    .init(row: 2, column: 1, rowSpan: 1, columnSpan: 1, text: "Physics"),
                    .init(row: 2, column: 2, rowSpan: 1, columnSpan: 1, text: "Algebra"),
                    .init(row: 2, column: 3, rowSpan: 1, columnSpan: 1, text: "Chess"),
                    .init(row: 3, column: 0, rowSpan: 1, columnSpan: 1, text: "Tuesday"),
                    .init(row: 3, column: 1, rowSpan: 1, columnSpan: 2, text: "Biology"),
                    .init(row: 3, column: 3, rowSpan: 1, columnSpan: 1, text: "Piano"),
                    .init(row: 4, column: 0, rowSpan: 1, columnSpan: 1, text: "Friday"),
                    .init(row: 4, column: 1, rowSpan: 1, columnSpan: 1, text: "History"),
                    .init(row: 4, column: 2, rowSpan: 1, columnSpan: 1, text: "Poetry"),
                    .init(row: 4, column: 3, rowSpan: 1, columnSpan: 1, text: "Tennis"),
                ])
        ])
    public static let timetable = Scene(name: "timetable", truth: timetableTruth) {
        var c = try Fixtures.canvas(width: 1240, height: 1754)
        try write("Course Schedule", &c, x: 100, y: 90, size: 56, font: bold)
        try write("Rooms open at eight and close at six every weekday.", &c, x: 100, y: 200, size: 30)
        try table(
            timetableTruth.tables[0].cells, on: &c, x0: 100, y0: 300, widths: [240, 240, 240, 240], rowHeight: 76)
        for (i, item) in ["Bring a notebook", "Arrive ten minutes early", "Return books on Friday"].enumerated() {
            try write("\(i + 1).  \(item)", &c, x: 100, y: 760 + i * 56, size: 30)
        }
        return c.makeImage()
    }

    static let leftColumn = [
        "The river rose two metres in the night and covered",
        "the lower meadow. By morning the water had cleared",
        "and the birds returned to the reeds.",
    ]
    static let leftSecond = [
        "We measured the flow at the old mill at noon and",
        "again at dusk; both readings were within the range.",
    ]
    static let rightColumn = [
        "The station needs three things before winter,",
        "listed here in the order we will do them.",
    ]

    /// A heading over two columns: two paragraphs on the left, a paragraph and a dashed list on the right.
    public static let columns = Scene(
        name: "columns",
        truth: Truth(
            title: "Field Notes",
            paragraphs: [
                leftColumn.joined(separator: " "), leftSecond.joined(separator: " "),
                rightColumn.joined(separator: " "),
            ],
            lists: [["Check the pumps", "Log the readings", "Call the office"]], tables: [])
    ) {
        var c = try Fixtures.canvas(width: 1700, height: 1100)
        try write("Field Notes", &c, x: 80, y: 70, size: 56, font: bold)
        for (i, line) in leftColumn.enumerated() { try write(line, &c, x: 80, y: 200 + i * 44, size: 26) }
        for (i, line) in leftSecond.enumerated() { try write(line, &c, x: 80, y: 380 + i * 44, size: 26) }
        for (i, line) in rightColumn.enumerated() { try write(line, &c, x: 900, y: 200 + i * 44, size: 26) }
        for (i, item) in ["Check the pumps", "Log the readings", "Call the office"].enumerated() {
            try write("-  \(item)", &c, x: 900, y: 330 + i * 48, size: 26)
        }
        return c.makeImage()
    }

    /// A table of names, email addresses and phone numbers: what Apple's sample reads into contacts.
    static let contactsTruth = Truth(
        title: "Team Contacts", paragraphs: [], lists: [],
        tables: [
            Truth.Table(
                rows: 4, columns: 3,
                cells: grid([
                    ["Name", "Email", "Phone"],
                    ["Ada Lovelace", "ada@example.com", "+1 415 555 0101"],
                    ["Alan Turing", "alan@example.org", "+44 20 7946 0958"],
                    ["Grace Hopper", "grace@example.net", "(212) 555-0199"],
                ]))
        ])
    public static let contacts = Scene(name: "contacts", truth: contactsTruth) {
        var c = try Fixtures.canvas(width: 1400, height: 900)
        try write("Team Contacts", &c, x: 80, y: 70, size: 56, font: bold)
        try table(contactsTruth.tables[0].cells, on: &c, x0: 80, y0: 220, widths: [360, 460, 420], rowHeight: 80)
        return c.makeImage()
    }

    public static let all = [report, timetable, columns, contacts]

    /// `scene`'s page turned by `degrees` clockwise: a quarter turn exactly (0, 90, 180, 270), any other angle pasted
    /// turned onto a white page large enough to hold it.
    public static func turned(_ scene: Scene, degrees: Double) throws -> VisionImage {
        let page = try scene.make()
        switch degrees {
        case 0: return page
        case 90: return try page.oriented(.right)
        case 180: return try page.oriented(.down)
        case 270: return try page.oriented(.left)
        default:
            let r = abs(degrees) * .pi / 180
            let w = Double(page.width)
            let h = Double(page.height)
            let outW = Int(w * cos(r) + h * sin(r)) + 40
            let outH = Int(w * sin(r) + h * cos(r)) + 40
            var canvas = try Fixtures.canvas(width: outW, height: outH)
            try canvas.draw(
                page, at: CGPoint(x: (Double(outW) - w) / 2, y: (Double(outH) - h) / 2), rotationDegrees: -degrees)
            return canvas.makeImage()
        }
    }
}
