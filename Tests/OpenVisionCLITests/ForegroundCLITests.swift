import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests foreground`: JSON (`foregroundInstances`), text, `--maps` and `--annotate`.
@Suite struct ForegroundCLITests {
    @Test func foregroundInAnalyze() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-foreground-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotated = dir.appendingPathComponent("annotated.png")
        let maps = dir.appendingPathComponent("maps")
        let image = Fixtures.sharedImage("person.jpg")
        let result = try await CLIProcess.run([
            "analyze", "--requests", "foreground", "--maps", maps.path, "--annotate", annotated.path, image.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let instances = try #require(report.foregroundInstances)
        // The horse, the person and the dog, largest first (rembg's blobs: 22,966, 14,244 and 6,879 pixels).
        #expect(instances.mask.width == 640 && instances.mask.height == 424)
        #expect(instances.instances.map(\.index) == [1, 2, 3])
        let pixels = instances.instances.map(\.pixels)
        #expect(pixels == pixels.sorted(by: >) && pixels.allSatisfy { $0 > 5_000 }, "\(pixels)")
        let png = try #require(instances.mask.png)
        #expect(FileManager.default.fileExists(atPath: png))
        let drawn = try VisionImage(contentsOf: annotated)
        let photo = try VisionImage(contentsOf: image)
        #expect(Fixtures.meanDifference(drawn, photo) > 1)

        let text = try await CLIProcess.run(["analyze", "--requests", "foreground", "--format", "text", image.path])
        #expect(text.stdout.contains("foreground instances") && text.stdout.contains("object 3:"), "\(text.stdout)")
    }
}
