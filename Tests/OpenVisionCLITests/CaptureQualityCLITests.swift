import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests facequality,aesthetics`: JSON (`faces[].captureQuality`, `aesthetics`), text and
/// `--annotate`.
@Suite struct CaptureQualityCLITests {
    @Test func qualityInAnalyze() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-quality-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotated = dir.appendingPathComponent("annotated.png")
        let image = Fixtures.sharedImage("astronaut.png")
        let result = try await CLIProcess.run([
            "analyze", "--requests", "facequality,aesthetics", "--annotate", annotated.path, image.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let faces = try #require(report.faces)
        #expect(faces.count == 1)
        let quality = try #require(faces.first?.captureQuality)
        #expect(quality > 0 && quality <= 1)
        let aesthetics = try #require(report.aesthetics)
        #expect(aesthetics.overallScore > -1 && aesthetics.overallScore <= 1 && !aesthetics.isUtility)
        let drawn = try VisionImage(contentsOf: annotated)
        #expect(Fixtures.meanDifference(drawn, try VisionImage(contentsOf: image)) > 0.1)

        let text = try await CLIProcess.run([
            "analyze", "--requests", "facequality,aesthetics", "--format", "text", image.path,
        ])
        #expect(text.stdout.contains("quality=") && text.stdout.contains("aesthetics "), "\(text.stdout)")
    }
}
