import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze` with the classic catalogue requests: JSON, maps beside it, annotation.
@Suite struct CatalogueCLITests {
    @Test func analyzeWritesEveryResultAndTheMaps() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotated = dir.appendingPathComponent("horses.png")
        let maps = dir.appendingPathComponent("maps")
        let result = try await CLIProcess.run([
            "analyze", Fixtures.sharedImage("horses.jpg").path,
            "--requests", "contours,horizon,saliency,objectness,textrects,document",
            "--maps", maps.path, "--annotate", annotated.path, "--timings",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        #expect(report.width == 773 && report.height == 512)
        let contours = try #require(report.contours)
        #expect(contours.contourCount == contours.contours.count && contours.contourCount > 1000)
        #expect(contours.contours.allSatisfy { $0.points.allSatisfy { $0.count == 2 && (0...1).contains($0[0]) } })
        let saliency = try #require(report.saliency)
        let objectness = try #require(report.objectness)
        #expect(saliency.heatMap.width == 68 && saliency.heatMap.height == 68 && !saliency.salientObjects.isEmpty)
        // The maps: an 8-bit PNG and the exact floats.
        let png = try #require(saliency.heatMap.png)
        let npy = try #require(objectness.heatMap.npy)
        #expect(try VisionImage(contentsOf: URL(fileURLWithPath: png)).width == 68)
        let npyBytes = try Data(contentsOf: URL(fileURLWithPath: npy))
        #expect(npyBytes.count > 68 * 68 * 4 && npyBytes.prefix(6) == Data([0x93] + Array("NUMPY".utf8)))
        #expect(report.textRectangles != nil)
        let timed = Set((report.timingsMs ?? [:]).keys)
        #expect(
            timed.isSuperset(of: ["decode", "contours", "horizon", "saliency", "objectness", "textrects", "document"]))
        #expect(try VisionImage(contentsOf: annotated).width == 773)
    }

    @Test func unknownRequestNamesTheNewOnes() async throws {
        let result = try await CLIProcess.run([
            "analyze", Fixtures.sharedImage("horses.jpg").path, "--requests", "contour",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("contours, horizon, saliency, objectness, textrects, document"))
    }
}
