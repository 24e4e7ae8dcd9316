import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision analyze --requests handpose` and `--face-revision`, run as a user would.
@Suite struct HandPoseCLITests {
    /// MediaPipe's wrist on hand-single.jpg (reference.json, model_complexity 1): the CLI reports it in pixels too.
    @Test func handposeAsJSONAndAnnotated() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = MediaPipeReference.imageURL("hand-single.jpg")
        let annotated = dir.appendingPathComponent("hand.png")
        let result = try await CLIProcess.run([
            "analyze", image.path, "--requests", "handpose", "--annotate", annotated.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        let hand = try #require(report.hands?.first)
        #expect(report.hands?.count == 1 && hand.joints.count == 21 && hand.chirality == "right")
        let reference = try #require(try MediaPipeReference.load().images["hand-single.jpg"]?.hands["full"]?.first)
        let wrist = try #require(hand.joints.first)
        #expect(wrist.name == "wrist")
        #expect(
            abs(wrist.point.pixels.x - reference.landmarks[0][0] * 480) < 5
                && abs(wrist.point.pixels.y - reference.landmarks[0][1] * 480) < 5)
        #expect(abs(wrist.point.normalized.y - (1 - wrist.point.pixels.y / 480)) < 1e-9)
        // The skeleton is drawn: the annotated copy differs from the photo along the bones.
        let original = try VisionImage(contentsOf: image)
        let drawn = try VisionImage(contentsOf: annotated)
        #expect(Fixtures.meanDifference(original, drawn) > 0.5)

        let text = try await CLIProcess.run(["analyze", image.path, "--requests", "handpose", "--format", "text"])
        #expect(text.stdout.contains("hand right"), "\(text.stdout)")
    }

    @Test func faceRevisionFlag() async throws {
        let astronaut = Fixtures.sharedImage("astronaut.png").path
        var boxes: [String: AnalysisReport.Face] = [:]
        for revision in ["hog", "blazeface-short", "blazeface-full"] {
            let result = try await CLIProcess.run([
                "analyze", astronaut, "--requests", "faces", "--face-revision", revision,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
            boxes[revision] = try #require(report.faces?.first, "\(revision)")
            #expect(report.faces?.count == 1)
        }
        // HOG: dlib's box (FaceTests); BlazeFace: MediaPipe's (BlazeFaceTests), with its keypoints as landmarks.
        #expect(abs(try #require(boxes["hog"]).box.pixels.x - 56.6) < 2)
        #expect(try #require(boxes["hog"]).landmarks == nil)
        #expect(try #require(boxes["blazeface-full"]).landmarks?["leftPupil"]?.count == 1)
        let bad = try await CLIProcess.run(["analyze", astronaut, "--requests", "faces", "--face-revision", "cnn"])
        #expect(bad.status != 0 && bad.stderr.contains("face-revision"), "\(bad.stderr)")
    }
}
