import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@testable import openvision

/// Jobs store their options typed (`JobOptions`: Codable, the registry's `RequestOptions` beside the job's own keys),
/// not as command-line arguments; a worker reads them back with the declarations' checks.
@Suite struct JobOptionsTests {
    /// Every kind of value round-trips through the payload's JSON; payloads written before (text forms, `confidence`
    /// and `model` as stream jobs stored them) read the same; a value the registry refuses does not.
    @Test func payloadsRoundTrip() throws {
        var options = JobOptions(
            requests: "barcodes,text,detect",
            options: try RequestOptions(values: [
                "symbologies": "qr,ean13", "maxRectangles": "3", "languages": "eng+deu", "confidence": "0.5",
                "model": "yolo.onnx",
                "pixelMean": "127", "cropAndScale": "scaleFill",
            ]))
        options.strict = true
        options.analysisSize = 640
        options.duration = 2.5
        let json = try options.json()
        #expect(
            json
                == #"{"analysisSize":640,"confidence":0.5,"cropAndScale":"scaleFill","duration":2.5,"languages":["eng","deu"],"#
                + #""maxRectangles":3,"model":"yolo.onnx","pixelMean":["127"],"requests":"barcodes,text,detect","strict":true,"#
                + #""symbologies":["qr","ean13"]}"#)
        #expect(try JobOptions(json: json) == options)
        let old = try JobOptions(
            json: #"{"requests":"text","languages":"eng+deu","maxRectangles":16,"model":"m.onnx","confidence":0.25}"#)
        #expect(old.options[.languages] == .list(["eng", "deu"]) && old.options[.maxRectangles] == .integer(16))
        #expect(
            old.options.modelName == "m.onnx" && old.options[.confidence] == .number(0.25) && old.requests == "text")
        #expect(throws: (any Error).self) { try JobOptions(json: #"{"symbologies":["nope"]}"#) }
        // The worker's still analysis: the registry's kinds and the still defaults under the payload's options.
        let analysis = try JobOptions(json: #"{"requests":"barcodes","symbologies":["ean13"]}"#).stillAnalysis()
        let barcodes = try #require(try analysis.makeRequests().first as? DetectBarcodesRequest)
        #expect(barcodes.symbologies == [.ean13] && analysis.options[.maxRectangles] == .integer(16))
    }
}

/// A payload's `symbologies` reaches the worker's barcode request: `jobs submit --symbologies`, and a payload written
/// by another producer as a JSON array.
@Suite(
    .enabled(
        if: RequiredTools.runs(PostgresCluster.available),
        "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct JobSymbologiesTests {
    @Test func workersReadOnlyTheSymbologiesAsked() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("codes.png")
        try Fixtures.qrAndEAN13PNG().write(to: image)
        let submit = try await CLIProcess.run([
            "jobs", "submit", "--db", url, "--requests", "barcodes", "--symbologies", "ean13", image.path,
        ])
        #expect(submit.status == 0, "\(submit.stderr)")
        #expect(try cluster.psql("SELECT options->'symbologies' FROM openvision_jobs WHERE id = 1") == #"["ean13"]"#)
        // Another producer's payload, straight into the table.
        let payload = #"{"requests": "barcodes", "symbologies": ["qr"]}"#
        _ = try cluster.psql(
            "INSERT INTO openvision_jobs (kind, input, options) VALUES ('image', '\(image.path)', '\(payload)')")
        let worker = try await CLIProcess.run([
            "worker", "--db", url, "--streams", "0", "--poll", "0.1", "--exit-when-drained", "--quiet",
        ])
        #expect(worker.status == 0, "\(worker.stderr)")
        let results = try cluster.psql(
            "SELECT job_id || ':' || (SELECT string_agg(b->>'payload', ',') "
                + "FROM jsonb_array_elements(result->'barcodes') b) FROM openvision_results ORDER BY job_id")
        #expect(results.split(whereSeparator: \.isNewline) == ["1:5901234123457", "2:qr-payload"], "\(results)")
    }
}
