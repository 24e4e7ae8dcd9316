import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// `VNTrackObjectRequest` on a `VNSequenceRequestHandler`, the way Vision's tracking articles write it: the
/// same request performed frame after frame, its `inputObservation` updated to the latest result. Its boxes
/// equal OpenVision's `TrackObjectRequest` on the same frames.
@Suite struct VNTrackingTests {
    @Test func trackObjectFollowsTheMovingPatchAsTheNativeRequest() async throws {
        var scene = try MovingPatchScene()
        scene.frameCount = 30
        let start = VNDetectedObjectObservation(
            boundingBox: CGRect(
                x: scene.truth(0).x, y: scene.truth(0).y,
                width: scene.truth(0).width, height: scene.truth(0).height))
        let request = VNTrackObjectRequest(detectedObjectObservation: start)
        request.trackingLevel = .accurate
        let sequenceHandler = VNSequenceRequestHandler()

        let native = TrackObjectRequest(
            detectedObjectObservation: DetectedObjectObservation(boundingBox: scene.truth(0)))
        native.trackingLevel = .accurate
        let nativeHandler = SequenceRequestHandler()

        for k in 0..<scene.frameCount {
            let frame = try scene.frame(k)
            try sequenceHandler.perform([request], on: CGImage(visionImage: frame))
            guard let observation = request.results?.first as? VNDetectedObjectObservation else {
                Issue.record("no result on frame \(k)")
                continue
            }
            #expect(request.inputObservation === observation, "the latest result is the next frame's input")
            let expected = try #require(try await nativeHandler.perform(native, on: frame).first)
            #expect(
                observation.boundingBox
                    == CGRect(
                        x: expected.boundingBox.x, y: expected.boundingBox.y,
                        width: expected.boundingBox.width, height: expected.boundingBox.height))
            #expect(observation.confidence == expected.confidence)
        }
        let last = request.inputObservation.boundingBox
        let truth = scene.truth(scene.frameCount - 1)
        #expect(abs(last.midX - truth.midX) < 0.02 && abs(last.midY - truth.midY) < 0.02)
        request.isLastFrame = true
    }
}
