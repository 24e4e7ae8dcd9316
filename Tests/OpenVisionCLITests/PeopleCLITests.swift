import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests bodypose,personmask`: JSON, text, `--maps` and `--annotate`.
@Suite struct PeopleCLITests {
    @Test func bodyPoseAndPersonMaskInAnalyze() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-people-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotated = dir.appendingPathComponent("annotated.png")
        let maps = dir.appendingPathComponent("maps")
        let image = Fixtures.sharedImage("person.jpg")
        let result = try await CLIProcess.run([
            "analyze", "--requests", "bodypose,personmask", "--maps", maps.path,
            "--annotate", annotated.path, image.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let pose = try #require(report.bodyPoses?.first)
        #expect(report.bodyPoses?.count == 1)
        #expect(pose.joints.count == 19 && pose.landmarks.count == 33)
        // MediaPipe Python's nose on person.jpg (Tests/Fixtures/MediaPipe/pose-reference.json): (0.374, 0.303) × 640 × 424.
        let nose = try #require(pose.joints.first { $0.name == "nose" })
        #expect(abs(nose.point.pixels.x - 0.374255 * 640) < 4 && abs(nose.point.pixels.y - 0.302718 * 424) < 4)
        let mask = try #require(report.personMask)
        #expect(mask.width == 640 && mask.height == 424 && mask.channels == 1)
        let png = try #require(mask.png)
        #expect(FileManager.default.fileExists(atPath: png) && mask.npy != nil)
        // The annotated copy has the skeleton and the mask drawn: it differs from the photo.
        let drawn = try VisionImage(contentsOf: annotated)
        let photo = try VisionImage(contentsOf: image)
        #expect(drawn.width == 640 && drawn.height == 424)
        #expect(Fixtures.meanDifference(drawn, photo) > 1)

        let text = try await CLIProcess.run(["analyze", "--requests", "bodypose", "--format", "text", image.path])
        #expect(text.stdout.contains("body pose"), "\(text.stdout)")
    }

    @Test func noPersonGivesEmptyPoses() async throws {
        let result = try await CLIProcess.run([
            "analyze", "--requests", "bodypose", Fixtures.sharedImage("eagle.jpg").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        #expect(report.bodyPoses == [])
        #expect(report.errors == nil)
    }
}
