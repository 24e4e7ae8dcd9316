import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests bodypose3d,personinstances` and `--body-hands on`: JSON, text, `--maps` and `--annotate`.
@Suite struct PeopleBodyCLITests {
    @Test func bodyPose3DAndPersonInstancesInAnalyze() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-people3d-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let annotated = dir.appendingPathComponent("annotated.png")
        let maps = dir.appendingPathComponent("maps")
        let image = Fixtures.sharedImage("person.jpg")
        let result = try await CLIProcess.run([
            "analyze", "--requests", "bodypose3d,personinstances", "--maps", maps.path,
            "--annotate", annotated.path, image.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let pose = try #require(report.bodyPoses3D?.first)
        #expect(pose.joints.map(\.name) == HumanBodyPose3DObservation.JointName.allCases.map(\.rawValue))
        #expect(pose.bodyHeight == 1.8 && pose.heightEstimation == "reference" && pose.cameraPosition[2] > 1)
        let root = try #require(pose.joints.first { $0.name == "root" })
        #expect(root.parent == nil && root.position == [0, 0, 0])
        // MediaPipe Python's left wrist on person.jpg (Tests/Fixtures/MediaPipe/pose-world-reference.json): (0.3349, 0.4637).
        let wrist = try #require(pose.joints.first { $0.name == "leftWrist" })
        #expect(
            wrist.parent == "leftElbow" && abs(wrist.point.pixels.x - 0.3349 * 640) < 4
                && abs(wrist.point.pixels.y - 0.4637 * 424) < 4)
        let instances = try #require(report.personInstances)
        #expect(instances.mask.width == 640 && instances.mask.height == 424 && instances.instances.map(\.index) == [1])
        let png = try #require(instances.mask.png)
        #expect(instances.instances[0].pixels > 10_000 && FileManager.default.fileExists(atPath: png))
        let drawn = try VisionImage(contentsOf: annotated)
        let photo = try VisionImage(contentsOf: image)
        #expect(Fixtures.meanDifference(drawn, photo) > 1)

        let text = try await CLIProcess.run([
            "analyze", "--requests", "bodypose3d,personinstances", "--format", "text", image.path,
        ])
        #expect(text.stdout.contains("body pose 3D") && text.stdout.contains("person 1:"), "\(text.stdout)")
    }

    @Test func bodyHandsFlag() async throws {
        let image = Fixtures.sharedImage("person.jpg")
        let result = try await CLIProcess.run(["analyze", "--requests", "bodypose", "--body-hands", "on", image.path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        // The gloved hands are not found (as by the hand request); the pose is.
        #expect(report.bodyPoses?.count == 1 && report.bodyPoses?.first?.leftHand == nil)
        let bad = try await CLIProcess.run(["analyze", "--requests", "bodypose", "--body-hands", "maybe", image.path])
        #expect(bad.status != 0 && bad.stderr.contains("body-hands"), "\(bad.stderr)")
    }
}
