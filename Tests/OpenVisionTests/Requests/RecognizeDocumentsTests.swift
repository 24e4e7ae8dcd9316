import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `RecognizeDocumentsRequest` on rendered pages of known structure (`DocumentPageScenes`): every table cell's place,
/// spans and text, the lists' items and the title, upright and turned; and the `documents` JSON.
/// The same pages through rapid-table 0.3.0's own Python pipeline (Benchmarks/python/bench_documents.py on
/// `openvision-bench make-page-set`'s PNGs) give the same cells' places and spans on the upright pages.
@Suite struct RecognizeDocumentsTests {
    static func squeeze(_ text: String) -> String { text.filter { !$0.isWhitespace } }

    static func check(_ table: DocumentObservation.Container.Table, _ truth: DocumentPageScenes.Truth.Table) {
        #expect(table.rowCount == truth.rows && table.columnCount == truth.columns)
        let found = Set(
            table.cells.map { cell in
                DocumentPageScenes.Truth.Cell(
                    row: cell.rowRange.lowerBound, column: cell.columnRange.lowerBound,
                    rowSpan: cell.rowRange.count, columnSpan: cell.columnRange.count,
                    text: squeeze(cell.content.text.transcript))
            })
        let expected = Set(
            truth.cells.map { cell in
                var c = cell
                c.text = squeeze(cell.text)
                return c
            })
        #expect(found == expected, "missing \(expected.subtracting(found)), extra \(found.subtracting(expected))")
    }

    /// A timetable with a header over two columns, two headers over two rows and a cell over two columns, and a
    /// numbered list; upright, turned a quarter, and turned −2° (where SLANet-plus splits "Biology" over two columns
    /// into a cell and an empty one: the ruling between them is not drawn, so they are one, `TableRulings`).
    @Test(arguments: [0.0, 90.0, -2.0])
    func timetableCellsAndSpans(degrees: Double) async throws {
        let scene = DocumentPageScenes.timetable
        let image = try DocumentPageScenes.turned(scene, degrees: degrees)
        let documents = try await ImageRequestHandler(image: image).perform(RecognizeDocumentsRequest())
        let document = try #require(documents.first).document
        // The title stands out from the text outside the table (its cells' lines measure taller than the body's).
        #expect(document.title?.transcript == scene.truth.title)
        try #require(document.tables.count == 1)
        Self.check(document.tables[0], scene.truth.tables[0])
        #expect(document.lists.map { $0.items.map(\.itemString) } == scene.truth.lists)
        #expect(document.lists.first?.items.first?.markerType == .decimal)
    }

    /// The report page through the registry (`--requests documents`): the JSON the CLI and HTTP API print.
    @Test func reportJSON() async throws {
        let scene = DocumentPageScenes.report
        let run = try await StillAnalysis(kinds: RequestKind.kinds(from: ["documents"])).run(
            on: ImageRequestHandler(image: try scene.make()),
            image: "report")
        #expect(run.report.errors == nil)
        let json = try #require(
            try JSONSerialization.jsonObject(with: run.report.jsonData(pretty: false)) as? [String: Any])
        let documents = try #require(json["documents"] as? [[String: Any]])
        try #require(documents.count == 1)
        let document = documents[0]
        #expect(document["title"] as? String == "Quarterly Report")
        let paragraphs = try #require(document["paragraphs"] as? [[String: Any]])
        #expect(paragraphs.compactMap { $0["text"] as? String } == scene.truth.paragraphs)
        let lists = try #require(document["lists"] as? [[String: Any]])
        // Spaces ignored, as for cells: PP-OCRv4 reads "Open two new stores" as "Open two newstores".
        #expect(
            lists.map {
                ($0["items"] as? [[String: Any]] ?? []).compactMap { ($0["text"] as? String).map(Self.squeeze) }
            }
                == scene.truth.lists.map { $0.map(Self.squeeze) })
        let tables = try #require(document["tables"] as? [[String: Any]])
        try #require(tables.count == 1)
        #expect(tables[0]["rows"] as? Int == 4 && tables[0]["columns"] as? Int == 3)
        let cells = try #require(tables[0]["cells"] as? [[String: Any]])
        let found = Set(
            cells.map { c in
                DocumentPageScenes.Truth.Cell(
                    row: c["row"] as? Int ?? -1, column: c["column"] as? Int ?? -1,
                    rowSpan: c["rowSpan"] as? Int ?? -1, columnSpan: c["columnSpan"] as? Int ?? -1,
                    text: c["text"] as? String ?? "")
            })
        #expect(found == Set(scene.truth.tables[0].cells))
        #expect(cells.allSatisfy { $0["box"] != nil })
    }
}
