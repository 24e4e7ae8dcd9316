import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests text --recognition-level accurate` as a user runs it.
@Suite struct AccurateTextCLITests {
    /// A line turned by 12°: read back, with rotated corners in the JSON and an annotated copy.
    @Test func analyzeRotatedLineAccurately() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try #require(OCRScenes.rendered.first { $0.name == "rot12" })
        let input = dir.appendingPathComponent("rot12.png")
        try scene.make().write(to: input)
        let annotated = dir.appendingPathComponent("annotated.png")
        let result = try await CLIProcess.run([
            "analyze", input.path, "--requests", "text", "--recognition-level", "accurate",
            "--annotate", annotated.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let line = try #require(report.text?.first)
        #expect(report.text?.count == 1 && line.string == "Camera mounted sideways")
        // Reading direction from topLeft to topRight rises by 12° (pixels, y down): rapidocr's box
        // for this scene is (170, 418), (765, 299), (775, 350), (180, 469).
        let corners = try #require(line.corners).map(\.pixels)
        #expect(corners.count == 4 && abs(corners[0].x - 170) <= 2 && abs(corners[0].y - 418) <= 2, "\(corners)")
        let degrees = atan2(corners[0].y - corners[1].y, corners[1].x - corners[0].x) * 180 / .pi
        #expect(abs(degrees - 12) < 2, "\(degrees)")
        let drawn = try VisionImage(contentsOf: annotated)
        #expect(drawn.rgbData() != (try VisionImage(contentsOf: input)).rgbData(), "the annotation drew something")

        // The fast level reads the same file with Tesseract; an unknown level is a usage error.
        let fast = try await CLIProcess.run([
            "analyze", input.path, "--requests", "text", "--recognition-level", "fast",
        ])
        #expect(fast.status == 0, "\(fast.stderr)")
        let bad = try await CLIProcess.run(["analyze", input.path, "--requests", "text", "--recognition-level", "best"])
        #expect(bad.status != 0 && bad.stderr.contains("recognition-level"), "\(bad.stderr)")
    }
}
