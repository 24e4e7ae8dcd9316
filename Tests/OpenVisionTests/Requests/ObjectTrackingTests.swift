import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct ObjectTrackingTests {
    /// Runs a TrackObjectRequest over the scene (started on frame 0 from the true box) and returns each frame's
    /// result.
    static func track(_ scene: MovingPatchScene, level: TrackingLevel) async throws -> [DetectedObjectObservation] {
        let request = TrackObjectRequest(
            detectedObjectObservation: DetectedObjectObservation(boundingBox: scene.truth(0)))
        request.trackingLevel = level
        let handler = SequenceRequestHandler()
        var results: [DetectedObjectObservation] = []
        for k in 0..<scene.frameCount {
            let result = try await handler.perform(request, on: try scene.frame(k))
            #expect(result.count == 1)
            guard let observation = result.first else { continue }
            // Vision's semantics: the latest result is the next frame's input, with the same uuid.
            #expect(request.inputObservation == observation)
            results.append(observation)
        }
        #expect(Set(results.map(\.uuid)).count == 1)
        #expect(request.frameCount == scene.frameCount)
        return results
    }

    @Test(arguments: TrackingLevel.allCases)
    func followsMovingPatch(_ level: TrackingLevel) async throws {
        let scene = try MovingPatchScene()
        let results = try await Self.track(scene, level: level)
        let ious = results.indices.map { results[$0].boundingBox.intersectionOverUnion(scene.truth($0)) }
        let worst = ious.indices.min { ious[$0] < ious[$1] }!
        #expect(ious[worst] >= 0.8, "\(level): IoU \(ious[worst]) at frame \(worst)")
        #expect(
            results.dropFirst().allSatisfy { $0.confidence > 0.5 }, "\(level): confidences \(results.map(\.confidence))"
        )
    }

    /// A gray card covers the patch on frames 50–64: the confidence falls well below the clear frames'.
    @Test(arguments: TrackingLevel.allCases)
    func confidenceDropsWhenOccluded(_ level: TrackingLevel) async throws {
        var scene = try MovingPatchScene()
        scene.occluded = 50..<65
        let results = try await Self.track(scene, level: level)
        let clear = results[1..<50].map(\.confidence)
        let covered = results[51..<65].map(\.confidence)
        #expect(clear.min()! > 0.6, "\(level): clear \(clear)")
        #expect(covered.max()! < 0.3, "\(level): covered \(covered)")
    }

    /// The patch turns 8° and grows 15% while moving: the rectangle's corners stay within 4 px (0.6% of the width) of the truth.
    @Test(arguments: TrackingLevel.allCases)
    func rectangleCornersFollowPatch(_ level: TrackingLevel) async throws {
        var scene = try MovingPatchScene()
        scene.finalDegrees = 8
        scene.finalScale = 1.15
        let c = scene.truthCorners(0)
        let request = TrackRectangleRequest(
            rectangleObservation: RectangleObservation(
                topLeft: c[0], topRight: c[1], bottomRight: c[2],
                bottomLeft: c[3], confidence: 1))
        request.trackingLevel = level
        let handler = SequenceRequestHandler()
        var worst = (error: 0.0, frame: 0)
        for k in 0..<scene.frameCount {
            let result = try #require(try await handler.perform(request, on: try scene.frame(k)).first)
            #expect(request.inputObservation == result)
            let truth = scene.truthCorners(k)
            for (corner, expected) in zip(result.corners, truth) {
                let error = hypot(
                    (corner.x - expected.x) * Double(MovingPatchScene.width),
                    (corner.y - expected.y) * Double(MovingPatchScene.height))
                if error > worst.error { worst = (error, k) }
            }
            if k > 0 { #expect(result.confidence > 0.5, "frame \(k)") }
        }
        #expect(worst.error < 4, "\(level): worst corner error \(worst.error) px at frame \(worst.frame)")
    }

    @Test(arguments: [
        NormalizedRect(x: 1.2, y: 0.3, width: 0.1, height: 0.1), NormalizedRect(x: 0.3, y: 0.3, width: 0, height: 0.1),
        NormalizedRect(x: Double.nan, y: 0.3, width: 0.1, height: 0.1),
        NormalizedRect(x: -0.5, y: -0.5, width: 0.2, height: 0.2),
    ])
    func rejectsBadBoxes(_ box: NormalizedRect) async throws {
        let frame = try MovingPatchScene().frame(0)
        let request = TrackObjectRequest(detectedObjectObservation: DetectedObjectObservation(boundingBox: box))
        await #expect(throws: VisionError.self) { _ = try await SequenceRequestHandler().perform(request, on: frame) }
        do {
            _ = try await SequenceRequestHandler().perform(request, on: frame)
        } catch {
            #expect(error.code == .invalidArgument, "\(error)")
        }
    }

    @Test func rejectsNaNCorners() async throws {
        let frame = try MovingPatchScene().frame(0)
        let p = NormalizedPoint(x: 0.2, y: 0.2)
        let request = TrackRectangleRequest(
            rectangleObservation: RectangleObservation(
                topLeft: NormalizedPoint(x: .nan, y: 0.3), topRight: p,
                bottomRight: NormalizedPoint(x: 0.3, y: 0.1),
                bottomLeft: NormalizedPoint(x: 0.1, y: 0.1), confidence: 1))
        do {
            _ = try await SequenceRequestHandler().perform(request, on: frame)
            Issue.record("NaN corners accepted")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func rejectsFrameSizeChangeAndRestartsAfterLastFrame() async throws {
        let scene = try MovingPatchScene()
        let request = TrackObjectRequest(
            detectedObjectObservation: DetectedObjectObservation(boundingBox: scene.truth(0)))
        let handler = SequenceRequestHandler()
        _ = try await handler.perform(request, on: try scene.frame(0))
        _ = try await handler.perform(request, on: try scene.frame(1))
        let small = try scene.frame(2).resized(width: 320, height: 240)
        do {
            _ = try await handler.perform(request, on: small)
            Issue.record("a frame of another size was accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("640×480") && error.message.contains("320×240"), "\(error.message)")
        }
        // The track goes on at its size.
        let next = try #require(try await handler.perform(request, on: try scene.frame(2)).first)
        #expect(next.boundingBox.intersectionOverUnion(scene.truth(2)) > 0.8)
        // isLastFrame releases the tracker: the next perform starts again from inputObservation (confidence 1).
        request.isLastFrame = true
        _ = try await handler.perform(request, on: try scene.frame(3))
        request.isLastFrame = false
        let restarted = try #require(try await handler.perform(request, on: small).first)
        #expect(restarted.confidence == 1)
    }
}
