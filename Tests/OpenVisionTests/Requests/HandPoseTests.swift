import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `DetectHumanHandPoseRequest` against MediaPipe Python 0.10.14 (`mp.solutions.hands`, static_image_mode=True,
/// max_num_hands=2, model_complexity 0 and 1) on the same images and model files. Reference:
/// `/work/.venv-mp/bin/python Benchmarks/python/mediapipe_reference.py ../shared/images Tests/Fixtures/MediaPipe`
/// (it also renders the hand images: none of the shared photos shows a hand MediaPipe finds).
@Suite struct HandPoseTests {
    static let reference = Result { try MediaPipeReference.load() }

    static func hands(
        _ name: String, _ complexity: DetectHumanHandPoseRequest.ModelComplexity,
        configure: (inout DetectHumanHandPoseRequest) -> Void = { _ in }
    ) async throws -> [HumanHandPoseObservation] {
        var request = DetectHumanHandPoseRequest()
        request.modelComplexity = complexity
        configure(&request)
        return try await ImageRequestHandler(MediaPipeReference.imageURL(name)).perform(request)
    }

    /// Mean joint distance, in pixels, between ours (lower-left normalised) and MediaPipe's (top-left normalised).
    static func meanDistance(
        _ ours: HumanHandPoseObservation, _ theirs: MediaPipeReference.Hand, width: Int, height: Int
    ) -> Double {
        zip(ours.joints, theirs.landmarks).map { joint, p in
            hypot((joint.location.x - p[0]) * Double(width), ((1 - joint.location.y) - p[1]) * Double(height))
        }.reduce(0, +) / 21
    }

    @Test(
        arguments: ["hand-single.jpg", "hands-two.jpg", "hand-small.jpg", "person.jpg", "astronaut.png"],
        [DetectHumanHandPoseRequest.ModelComplexity.lite, .full])
    func jointsMatchMediaPipe(_ name: String, _ complexity: DetectHumanHandPoseRequest.ModelComplexity) async throws {
        let reference = try #require(try Self.reference.get().images[name])
        let expected = try #require(reference.hands[complexity.rawValue])
        let found = try await Self.hands(name, complexity)
        #expect(
            found.count == expected.count, "\(name) \(complexity): \(found.count) hands, MediaPipe \(expected.count)")
        let diagonal = hypot(Double(reference.width), Double(reference.height))
        for theirs in expected {
            // Pair each of MediaPipe's hands with our nearest one.
            let ours = try #require(
                found.min {
                    Self.meanDistance($0, theirs, width: reference.width, height: reference.height)
                        < Self.meanDistance($1, theirs, width: reference.width, height: reference.height)
                })
            let distance = Self.meanDistance(ours, theirs, width: reference.width, height: reference.height)
            #expect(
                distance / diagonal <= 0.01,
                "\(name) \(complexity): mean joint distance \(distance) px (diagonal \(diagonal))")
            // MediaPipe's "Left" assumes a mirrored image: the person's right hand here.
            #expect(
                ours.chirality == (theirs.label == "Left" ? .right : .left),
                "\(name): \(ours.chirality) vs MediaPipe \(theirs.label)")
            #expect(
                abs(Double(ours.chiralityConfidence) - theirs.score) < 0.05,
                "\(name): \(ours.chiralityConfidence) vs \(theirs.score)")
            #expect(ours.joints.map(\.identifier) == HumanHandPoseObservation.JointName.allCases.map(\.rawValue))
            #expect(ours.confidence >= 0.5 && ours.joints.allSatisfy { $0.confidence == ours.confidence })
        }
    }

    @Test func jointNamesAndGroupsAreVisions() async throws {
        let hand = try #require(try await Self.hands("hand-single.jpg", .full).first)
        #expect(
            hand.availableJointNames.count == 21 && hand.availableKeys.first == "wrist"
                && hand.availableKeys.last == "littleTip")
        let thumb = hand.recognizedPoints(.thumb)
        #expect(Set(thumb.keys) == [.thumbCMC, .thumbMP, .thumbIP, .thumbTip])
        #expect(hand.recognizedPoints(.all).count == 21)
        #expect(hand.allRecognizedPoints["indexTip"] == hand.recognizedPoint(.indexTip))
        // The rendered hand points up: every fingertip is above the wrist (lower-left origin: larger y).
        let wrist = hand.recognizedPoint(.wrist).location.y
        for tip in [HumanHandPoseObservation.JointName.indexTip, .middleTip, .ringTip, .littleTip] {
            #expect(hand.recognizedPoint(tip).location.y > wrist + 0.1, "\(tip)")
        }
        #expect(HumanHandPoseObservation.skeletonPairs.count == 20)
    }

    @Test func maximumHandCountLimitsTheHands() async throws {
        let reference = try #require(try Self.reference.get().images["hands-two.jpg"]?.hands["full"])
        #expect(reference.count == 2)
        let one = try await Self.hands("hands-two.jpg", .full) { $0.maximumHandCount = 1 }
        #expect(one.count == 1)
        #expect(try await Self.hands("hands-two.jpg", .full) { $0.maximumHandCount = 0 }.isEmpty)
        let both = try await Self.hands("hands-two.jpg", .full)
        #expect(Set(both.map(\.chirality)) == [.left, .right])
        do {
            _ = try await Self.hands("hands-two.jpg", .full) { $0.maximumHandCount = -1 }
            Issue.record("expected invalidArgument")
        } catch {
            #expect((error as? VisionError)?.code == .invalidArgument, "\(error)")
        }
    }

    /// Images smaller than the models' inputs (192 and 224 px), down to one pixel, give results or none, never an error.
    @Test(arguments: [1, 7, 64])
    func tinyImagesWork(_ side: Int) async throws {
        let image = try VisionImage(contentsOf: MediaPipeReference.imageURL("hand-single.jpg")).resized(
            width: side, height: side)
        let hands = try await ImageRequestHandler(image: image).perform(DetectHumanHandPoseRequest())
        #expect(hands.count <= 1)
    }

    @Test func regionOfInterestResultsAreRelativeToIt() async throws {
        // The right half of hands-two holds the mirrored (left) hand.
        var request = DetectHumanHandPoseRequest()
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let hands = try await ImageRequestHandler(MediaPipeReference.imageURL("hands-two.jpg")).perform(request)
        let hand = try #require(hands.first)
        #expect(hands.count == 1 && hand.chirality == .left)
        let reference = try #require(
            try Self.reference.get().images["hands-two.jpg"]?.hands["full"]?.first { $0.label == "Right" })
        // MediaPipe's wrist x on the whole image → relative to the right half.
        #expect(abs(hand.recognizedPoint(.wrist).location.x - (reference.landmarks[0][0] - 0.5) * 2) < 0.03)
    }
}
