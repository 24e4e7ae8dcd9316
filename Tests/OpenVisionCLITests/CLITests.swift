import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Runs the built `openvision` binary as a user would and checks its output and exit status.
@Suite struct CLITests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLIProcess.Run {
        try await CLIProcess.run(arguments, environment: environment)
    }

    static func tempDir() throws -> URL { try CLIProcess.tempDir() }

    @Test func analyzeAstronautAsJSON() async throws {
        let result = try await Self.run([
            "analyze", Fixtures.sharedImage("astronaut.png").path, "--requests", "faces,landmarks",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        #expect(report.width == 210 && report.height == 210)
        let face = try #require(report.faces?.first)
        #expect(report.faces?.count == 1)
        // Pixel box (top-left origin) and normalised box (lower-left origin) describe the same face: landmarks (Vision's
        // 76 points on MediaPipe's face mesh) stand in for faces, with BlazeFace's box as MediaPipe Python's
        // ((54.7, 51.8) px, Tests/Fixtures/MediaPipe/reference.json).
        #expect(abs(face.box.pixels.x - 54.7) < 2 && abs(face.box.pixels.y - 51.8) < 2)
        #expect(abs(face.box.normalized.y - (1 - (face.box.pixels.y + face.box.pixels.height) / 210)) < 1e-6)
        #expect(face.landmarks?["leftEye"]?.count == 8 && face.landmarks?["outerLips"]?.count == 14)
        #expect(
            face.constellation == 76 && face.revision == 3 && face.precision?["leftEye"]?.count == 8
                && face.pitch != nil)
    }

    /// A truncated JPEG: rc 0 with the decoder's warnings in JSON `warnings`; `--strict` makes it an error (rc 1).
    @Test func damagedJPEGWarnsAndStrictFails() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let cut = dir.appendingPathComponent("cut.jpg")
        try (whole.prefix(whole.count / 2) + Data([0xFF, 0xD9])).write(to: cut)
        let lenient = try await Self.run(["analyze", cut.path, "--requests", "barcodes"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(lenient.stdout.utf8))
        #expect(report.warnings?.first == "Corrupt JPEG data: premature end of data segment")
        #expect(!lenient.stderr.contains("Corrupt JPEG data"))  // no longer only on stderr
        let strict = try await Self.run(["analyze", cut.path, "--requests", "barcodes", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("premature end of data segment") && strict.stderr.contains("invalidImage"))
        let clean = try await Self.run([
            "analyze", "--requests", "barcodes", "--strict", Fixtures.sharedImage("dog.jpg").path,
        ])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(try JSONDecoder().decode(AnalysisReport.self, from: Data(clean.stdout.utf8)).warnings == nil)
    }

    @Test func barcodeRoundTripAndAnnotation() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let code = dir.appendingPathComponent("code.png").path
        let made = try await Self.run(["barcode", "CLI round trip", "--symbology", "qr", "--output", code])
        #expect(made.status == 0, "\(made.stderr)")
        let annotated = dir.appendingPathComponent("annotated.png")
        // every request
        let result = try await Self.run(["analyze", code, "--annotate", annotated.path, "--format", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("barcode qr \"CLI round trip\""))
        let image = try VisionImage(contentsOf: annotated)
        let original = try VisionImage(contentsOf: URL(fileURLWithPath: code))
        #expect(image.width == original.width && image.height == original.height)
        #expect(image.rgbData() != original.rgbData(), "the annotation drew something")
    }

    @Test func directoryWithABadImageReportsItAndExitsNonZero() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try BarcodeGenerator.image(for: "good", symbology: .qr)
        try good.write(to: dir.appendingPathComponent("a-good.png"))
        let jpeg = try good.encoded(as: .jpeg)
        try jpeg.prefix(jpeg.count / 2).write(to: dir.appendingPathComponent("b-truncated.jpg"))
        // After the bad one (each image is decoded while the one before runs): its own result, in order.
        try BarcodeGenerator.image(for: "after", symbology: .qr).write(to: dir.appendingPathComponent("c-after.png"))
        let result = try await Self.run(["analyze", dir.path, "-r", "barcodes"])
        #expect(result.status == 1)
        let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("openvision: error:") }
        #expect(errorLines.count == 1)
        #expect(
            errorLines.first?.contains("b-truncated.jpg") == true && errorLines.first?.contains("invalidImage") == true)
        // The good images are still reported, one JSON object per line, in order.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let reports = try lines.map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        #expect(reports.map { $0.barcodes?.first?.payload } == ["good", "after"])
        #expect(reports.map { URL(fileURLWithPath: $0.image).lastPathComponent } == ["a-good.png", "c-after.png"])
    }

    @Test func missingFileAndUnknownRequest() async throws {
        let missing = try await Self.run(["analyze", "/nonexistent.png"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such image file") && missing.stderr.contains("fileNotFound"))
        let unknown = try await Self.run(["analyze", Fixtures.sharedImage("dog.jpg").path, "-r", "teleport"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("unknown request 'teleport'"))
    }
}

/// The CLI's request options come from the registry: flags for every option, validated as the HTTP API and job
/// payloads validate them, and one help text for `--requests` in every command.
@Suite struct RequestRegistryCLITests {
    @Test func optionsAreValidatedAndHelpListsEveryKind() async throws {
        let image = Fixtures.sharedImage("astronaut.png").path
        let bad = try await CLIProcess.run(["analyze", image, "--requests", "rectangles", "--max-rectangles=-5"])
        #expect(
            bad.status == 64 && bad.stderr.contains("maxRectangles='-5' must be an integer in 0...1000"),
            "\(bad.stderr)")
        let level = try await CLIProcess.run(["analyze", image, "--requests", "text", "--recognition-level", "best"])
        #expect(level.status == 64 && level.stderr.contains("one of fast, accurate"), "\(level.stderr)")
        // Job payloads are checked at submit, before any database is reached.
        let submit = try await CLIProcess.run([
            "jobs", "submit", "--db", "postgres://nobody@127.0.0.1:1/none", image, "--max-rectangles=-5",
        ])
        #expect(submit.status == 64 && submit.stderr.contains("maxRectangles='-5'"), "\(submit.stderr)")
        for command in ["analyze", "video", "live"] {
            let help = try await CLIProcess.run([command, "--help"])
            for kind in RequestKind.allCases where !(kind.isSequence && command == "analyze") {
                #expect(help.stdout.contains("\(kind.name):"), "\(command) --help lacks \(kind.name)")
            }
            // Every option a kind of the command reads, each once (the flags are declared once, in RequestOptionFlags).
            let kinds = RequestKind.allCases.filter { !($0.isSequence && command == "analyze") }
            for option in RequestOption.all where kinds.contains(where: { $0.options.contains(option) }) {
                #expect(
                    help.stdout.components(separatedBy: "--\(option.flag) <").count == 2,
                    "\(command) --help: --\(option.flag)")
            }
        }
    }
}

/// `featureprint`, a request added through the registry alone: it runs in `analyze` (and so in `serve` and jobs)
/// and reports the vector `GenerateImageFeaturePrintRequest` gives in the library, in JSON and as text.
@Suite struct FeaturePrintCLITests {
    @Test func analyzeReportsTheFeaturePrint() async throws {
        let url = Fixtures.sharedImage("dog.jpg")
        let run = try await CLIProcess.run(["analyze", url.path, "--requests", "featureprint"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try #require(
            try JSONDecoder().decode(AnalysisReport.self, from: Data(run.stdout.utf8)).featurePrint)
        let library = try await ImageRequestHandler(url).perform(GenerateImageFeaturePrintRequest())
        #expect(printed.count == 1280 && printed == library.data)
        let text = try await CLIProcess.run(["analyze", url.path, "--requests", "featureprint", "--format", "text"])
        #expect(text.stdout.contains("feature print 1280 values"), "\(text.stdout)")
    }
}
