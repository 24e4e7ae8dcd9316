import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Options declared once in the registry reach the command line: barcode `symbologies` (set from nowhere before),
/// classify's `--crop-and-scale` (detect's before), the model requests inside `analyze`, and flags a command's kinds do
/// not read refused.
@Suite struct RequestOptionsCLITests {
    static func payloads(_ stdout: String) throws -> [String] {
        try JSONDecoder().decode(AnalysisReport.self, from: Data(stdout.utf8)).barcodes?.compactMap(\.payload).sorted()
            ?? []
    }

    @Test func symbologiesChooseWhatBarcodesReads() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("codes.png")
        try Fixtures.qrAndEAN13PNG().write(to: image)
        // Unfiltered, zxing-cpp reads both codes the fixture holds.
        let all = try await CLIProcess.run(["analyze", image.path, "--requests", "barcodes"])
        #expect(try Self.payloads(all.stdout) == ["5901234123457", "qr-payload"], "\(all.stdout)")
        let qr = try await CLIProcess.run(["analyze", image.path, "--requests", "barcodes", "--symbologies", "qr"])
        #expect(try Self.payloads(qr.stdout) == ["qr-payload"], "\(qr.stdout)")
        let ean = try await CLIProcess.run(["analyze", image.path, "--requests", "barcodes", "--symbologies", "EAN13"])
        #expect(try Self.payloads(ean.stdout) == ["5901234123457"], "\(ean.stdout)")
        let bad = try await CLIProcess.run([
            "analyze", image.path, "--requests", "barcodes", "--symbologies", "qr,nope",
        ])
        #expect(
            bad.status == 64 && bad.stderr.contains("--symbologies: symbologies='qr,nope' must be 1 or more of"),
            "\(bad.stderr)")
    }

    /// `classify --crop-and-scale scaleFill` stretches eagle.jpg to 224 × 224 instead of cropping its centre. Reference:
    /// Python onnxruntime 1.31.1 on efficientnet-lite0.onnx, the photo resized to 224 × 224 with PIL's bilinear filter,
    /// (x − 127) / 128, softmax: bald eagle 0.305, kite 0.214, ruddy turnstone 0.077
    /// (`np.asarray(Image.open(p).convert("RGB").resize((224, 224), Image.BILINEAR))`). The centre crop (the default)
    /// gives kite far more (0.29, scripts/golden's classify.eagle.jpg.json).
    @Test func classifyTakesCropAndScale() async throws {
        let eagle = Fixtures.sharedImage("eagle.jpg").path
        let stretched = try await CLIProcess.run([
            "classify", eagle, "--crop-and-scale", "scaleFill", "--format", "json",
        ])
        #expect(stretched.status == 0, "\(stretched.stderr)")
        let labels = try #require(
            try JSONDecoder().decode(AnalysisReport.self, from: Data(stretched.stdout.utf8)).classifications)
        #expect(labels.count == 5)
        #expect(labels[0].identifier.hasPrefix("bald eagle") && abs(labels[0].confidence - 0.305) < 0.03, "\(labels)")
        #expect(labels[1].identifier == "kite" && abs(labels[1].confidence - 0.214) < 0.03, "\(labels)")
        let cropped = try await CLIProcess.run(["classify", eagle, "--top", "2"])
        let top = try #require(
            try JSONDecoder().decode(AnalysisReport.self, from: Data(cropped.stdout.utf8)).classifications)
        #expect(
            top.count == 2 && top[1].identifier == "kite" && top[1].confidence - labels[1].confidence > 0.05,
            "\(cropped.stdout)")
        // Options of other kinds are refused, naming who reads them.
        let iou = try await CLIProcess.run(["classify", eagle, "--iou", "0.3"])
        #expect(iou.status == 64 && iou.stderr.contains("--iou is for detect"), "\(iou.stderr)")
        let squash = try await CLIProcess.run(["classify", eagle, "--crop-and-scale", "squash"])
        #expect(
            squash.status == 64 && squash.stderr.contains("one of centerCrop, scaleFit, scaleFill"), "\(squash.stderr)")
    }

    /// `detect` and `classify` are kinds like any other: `analyze --requests detect` reports what `detect` does, with the
    /// same options, and `analyze --requests classify` what `classify` does (each alone: together they share one decode,
    /// at the larger input's scale).
    @Test func analyzeRunsTheModelKinds() async throws {
        let dog = Fixtures.sharedImage("dog.jpg").path
        func report(_ arguments: [String]) async throws -> AnalysisReport {
            let run = try await CLIProcess.run(arguments)
            #expect(run.status == 0, "\(run.stderr)")
            return try JSONDecoder().decode(AnalysisReport.self, from: Data(run.stdout.utf8))
        }
        let objects = try await report(["analyze", dog, "--requests", "detect", "--confidence", "0.3"]).objects
        #expect(objects?.isEmpty == false)
        let detected = try await report(["detect", dog, "--confidence", "0.3"]).objects
        #expect(objects == detected)
        let labels = try await report(["analyze", dog, "--requests", "classify", "--top", "3"]).classifications
        let classified = try await report(["classify", dog, "--top", "3"]).classifications
        #expect(labels?.count == 3 && labels == classified)
        let missing = try await CLIProcess.run(["analyze", dog, "--requests", "model"])
        #expect(missing.status == 64 && missing.stderr.contains("'model' runs a model of yours"), "\(missing.stderr)")
    }
}
