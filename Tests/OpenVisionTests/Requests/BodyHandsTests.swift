import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Hands on body poses (`DetectHumanBodyPoseRequest.detectsHands`): the hand landmark model in the region MediaPipe
/// Holistic derives from a pose's wrist, index and pinky landmarks. No shared photo shows a hand MediaPipe finds (the
/// person in person.jpg wears gloves; the astronaut's hands are out of the frame), so the region and landmark stage
/// are held on the rendered hand images (Benchmarks/python/mediapipe_reference.py) with pose landmarks placed where a
/// body's would be — wrist at the hand's wrist, index and pinky at its index and little finger knuckles — against
/// `DetectHumanHandPoseRequest` (itself held to MediaPipe Python) on the same hand.
@Suite struct BodyHandsTests {
    /// A pose estimate whose left wrist, index and pinky landmarks are `hand`'s wrist, index MCP and little MCP (image
    /// pixels), visible; every other landmark invisible at the image's centre.
    static func estimate(
        from hand: HumanHandPoseObservation, width: Int, height: Int,
        side: HumanBodyPoseObservation.BodyLandmark = .leftWrist
    )
        -> BlazePosePipeline.Estimate
    {
        var points = [(x: Double, y: Double, visibility: Float)](
            repeating: (Double(width) / 2, Double(height) / 2, 0), count: 33)
        func px(_ j: HumanHandPoseObservation.JointName) -> (x: Double, y: Double, visibility: Float) {
            let p = hand.recognizedPoint(j).pixelLocation(width: width, height: height)
            return (p.x, p.y, 0.95)
        }
        let (wrist, index, pinky) = side == .leftWrist ? (15, 19, 17) : (16, 20, 18)
        points[wrist] = px(.wrist)
        points[index] = px(.indexMCP)
        points[pinky] = px(.littleMCP)
        return BlazePosePipeline.Estimate(
            points: points, world: Array(repeating: .zero, count: 33), presence: 0.9,
            region: .fullImage(width: width, height: height), segmentation: nil, box: (0, 0, 0, 0))
    }

    /// On each rendered hand, the hand read from the pose's region matches the hand request's (mean joint distance
    /// under 1% of the image diagonal; 2 to 2.5 px measured), and its wrist is at the pose's wrist.
    @Test(arguments: ["hand-single.jpg", "hands-two.jpg"])
    func handFromPoseMatchesTheHandRequest(_ name: String) async throws {
        let url = MediaPipeReference.imageURL(name)
        let image = try VisionImage(contentsOf: url)
        var request = DetectHumanHandPoseRequest()
        request.modelComplexity = .full
        let found = try await ImageRequestHandler(url).perform(request)
        #expect(!found.isEmpty)
        let pipeline = try HandPosePipeline.installed(full: true)
        let diagonal = hypot(Double(image.width), Double(image.height))
        for (i, hand) in found.enumerated() {
            let side: HumanBodyPoseObservation.BodyLandmark = i % 2 == 0 ? .leftWrist : .rightWrist
            let e = Self.estimate(from: hand, width: image.width, height: image.height, side: side)
            let hands = try BlazePosePipeline.hands(of: e, in: image, with: pipeline)
            #expect((side == .leftWrist ? hands.right : hands.left) == nil)
            let read = try #require(
                side == .leftWrist ? hands.left : hands.right, "\(name): no hand in the pose's region")
            let ours = HumanHandPoseObservation(bodyHand: read, chirality: side == .leftWrist ? .left : .right)
            let distance =
                zip(ours.joints, hand.joints).map { a, b in
                    hypot(
                        (a.location.x - b.location.x) * Double(image.width),
                        (a.location.y - b.location.y) * Double(image.height))
                }.reduce(0, +) / 21
            #expect(distance / diagonal <= 0.01, "\(name): mean joint distance \(distance) px")
            let wrist = ours.recognizedPoint(.wrist).pixelLocation(width: image.width, height: image.height)
            #expect(hypot(wrist.x - e.points[side.rawValue].x, wrist.y - e.points[side.rawValue].y) <= 0.03 * diagonal)
            #expect(ours.chirality == (side == .leftWrist ? .left : .right) && ours.confidence >= 0.5)
        }
    }

    /// A wrist the pose does not see (visibility under Holistic's 0.1) reads no hand; a degenerate region (wrist,
    /// index and pinky at one point) reads none and does not crash.
    @Test func invisibleWristOrEmptyRegionReadsNoHand() throws {
        let image = try VisionImage(contentsOf: MediaPipeReference.imageURL("hand-single.jpg"))
        let pipeline = try HandPosePipeline.installed(full: true)
        var e = BlazePosePipeline.Estimate(
            points: Array(repeating: (240, 240, 0.05), count: 33), world: Array(repeating: .zero, count: 33),
            presence: 0.9, region: .fullImage(width: 480, height: 480), segmentation: nil, box: (0, 0, 0, 0))
        var hands = try BlazePosePipeline.hands(of: e, in: image, with: pipeline)
        #expect(hands.left == nil && hands.right == nil)
        e.points = Array(repeating: (240, 240, 0.9), count: 33)
        hands = try BlazePosePipeline.hands(of: e, in: image, with: pipeline)
        #expect(hands.left == nil && hands.right == nil)
        e.points = Array(repeating: (.nan, .infinity, 0.9), count: 33)
        hands = try BlazePosePipeline.hands(of: e, in: image, with: pipeline)
        #expect(hands.left == nil && hands.right == nil)
    }

    /// End to end on the shared photos: as the hand request, no hand is found on person.jpg (gloves) or the astronaut
    /// (out of frame); the poses are those without `detectsHands`; the report and the overlay carry the option.
    @Test func photosAndReport() async throws {
        for name in ["person.jpg", "astronaut.png"] {
            var request = DetectHumanBodyPoseRequest()
            request.detectsHands = true
            let poses = try await request.perform(on: Fixtures.sharedImage(name))
            let plain = try await DetectHumanBodyPoseRequest().perform(on: Fixtures.sharedImage(name))
            #expect(poses.map(\.landmarks) == plain.map(\.landmarks))
            #expect(try await DetectHumanHandPoseRequest().perform(on: Fixtures.sharedImage(name)).isEmpty)
            #expect(poses.allSatisfy { $0.leftHand == nil && $0.rightHand == nil })
        }
        let options = try RequestOptions(values: ["bodyHands": "on"])
        let bodypose = try #require(RequestKind.named("bodypose"))
        let built = try #require(try bodypose.makeRequest(options) as? DetectHumanBodyPoseRequest)
        #expect(built.detectsHands)
        #expect((try bodypose.makeRequest() as? DetectHumanBodyPoseRequest)?.detectsHands == false)
        #expect(throws: VisionError.self) { try RequestOptions(values: ["bodyHands": "maybe"]) }
    }
}
