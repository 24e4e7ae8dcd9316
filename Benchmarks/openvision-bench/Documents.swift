// openvision-bench make-page-set DIR
//   the documents tests' pages (DocumentPageScenes), upright and turned 90°, 180°, 270°, 3° and −2°: PNGs + truth.json
// openvision-bench documents RUNS [barcodes|nobarcodes] FILE...
//   per file: the median of RUNS timed RecognizeDocumentsRequest runs (decoded image in, document out; one warm-up
//   first), its tables (rows, columns, cells with spans and text), lists and title, as JSONL. The Python peer is
//   Benchmarks/python/bench_documents.py (rapid-layout + rapidocr + rapid-table on the same models).
import Foundation
import OpenVision
import OpenVisionFixtures

/// The turns `make-page-set` writes each scene at.
let pageTurns: [Double] = [0, 90, 180, 270, 3, -2]

func makePageSet(_ dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var truth: [[String: Any]] = []
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for scene in DocumentPageScenes.all {
        for degrees in pageTurns {
            let name = "\(scene.name)-\(Int(degrees)).png"
            try DocumentPageScenes.turned(scene, degrees: degrees).write(to: dir.appendingPathComponent(name))
            let sceneTruth = try JSONSerialization.jsonObject(with: try encoder.encode(scene.truth))
            truth.append(["file": name, "degrees": degrees, "truth": sceneTruth])
        }
    }
    let data = try JSONSerialization.data(withJSONObject: truth, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: dir.appendingPathComponent("truth.json"))
}

func benchDocuments(runs: Int, barcodes: Bool, files: [String]) async throws {
    var request = RecognizeDocumentsRequest()
    request.barcodeDetectionOptions.enabled = barcodes
    for file in files {
        let image = try VisionImage(contentsOf: URL(fileURLWithPath: file))
        var times: [Double] = []
        var documents: [DocumentObservation] = []
        for run in 0..<(runs + 1) {
            let start = clock.now
            documents = try await ImageRequestHandler(image: image).perform(request)
            if run > 0 { times.append(ms(clock.now - start)) }
        }
        let d = documents.first?.document
        let tables: [[String: Any]] = (d?.tables ?? []).map { table in
            [
                "rows": table.rowCount, "columns": table.columnCount,
                "cells": table.cells.map { cell -> [String: Any] in
                    [
                        "row": cell.rowRange.lowerBound, "column": cell.columnRange.lowerBound,
                        "rowSpan": cell.rowRange.count,
                        "columnSpan": cell.columnRange.count, "text": cell.content.text.transcript,
                    ]
                },
            ]
        }
        emit([
            "file": file, "median_ms": median(times), "tables": tables, "title": d?.title?.transcript ?? "",
            "lists": (d?.lists ?? []).map { $0.items.map(\.itemString) },
            "paragraphs": (d?.paragraphs ?? []).map(\.transcript),
        ])
    }
}
