import CoreML
import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision
@testable import Vision

/// Vision's people requests (`VNDetectHumanBodyPoseRequest`, `VNDetectHumanHandPoseRequest`,
/// `VNGeneratePersonSegmentationRequest`) give what OpenVision's own requests give, through Vision's API: joints by
/// name and group, chirality, masks in the pixel formats Vision offers.
@Suite struct VNPeopleTests {
    static let person = try! VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))

    @Test func bodyPoseByJointAndGroup() throws {
        let request = VNDetectHumanBodyPoseRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request])
        let poses = try #require(request.results as? [VNHumanBodyPoseObservation])
        let native = try DetectHumanBodyPoseRequest().perform(in: ImageRequestHandler(image: Self.person).context)
        #expect(poses.count == native.count && poses.count == 1)
        let pose = try #require(poses.first)
        #expect(pose.availableJointNames.count == 19 && pose.availableJointsGroupNames.count == 7)
        let nose = try pose.recognizedPoint(.nose)
        let nativeNose = native[0].recognizedPoint(.nose)
        #expect(nose.location.x == nativeNose.location.x && nose.location.y == nativeNose.location.y)
        #expect(nose.confidence == nativeNose.confidence && nose.confidence > 0.3)
        let face = try pose.recognizedPoints(.face)
        #expect(Set(face.keys) == [.nose, .leftEye, .rightEye, .leftEar, .rightEar])
        #expect(try pose.recognizedPoints(.all).count == 19)
        // Vision's error for a point the observation does not have.
        #expect(throws: VNError.self) { try pose.recognizedPoint(forKey: "tail") }
        // Create ML's keypoints: 18 joints (no root) in OpenPose's order, x / y / confidence.
        let keypoints = try pose.keypointsMultiArray()
        #expect(keypoints.shape == [1, 3, 18])
        #expect(keypoints[[0, 0, 0]] == Float(nose.x) && keypoints[[0, 2, 0]] == nose.confidence)
        let neck = try pose.recognizedPoint(.neck)
        #expect(keypoints[[0, 1, 1]] == Float(neck.y))
        #expect(try VNDetectHumanBodyPoseRequest.supportedJointNames().count == 19)
    }

    @Test func handPoseWithChirality() throws {
        let image = try VisionImage(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/MediaPipe/hands-two.jpg"))
        let request = VNDetectHumanHandPoseRequest()
        request.maximumHandCount = 1
        try VNImageRequestHandler(cgImage: CGImage(visionImage: image)).perform([request])
        let hands = try #require(request.results as? [VNHumanHandPoseObservation])
        #expect(hands.count == 1)
        request.maximumHandCount = 2
        try VNImageRequestHandler(cgImage: CGImage(visionImage: image)).perform([request])
        let two = try #require(request.results as? [VNHumanHandPoseObservation])
        var native = DetectHumanHandPoseRequest()
        native.maximumHandCount = 2
        let nativeHands = try native.perform(in: ImageRequestHandler(image: image).context)
        #expect(two.count == 2 && nativeHands.count == 2)
        for (vn, hand) in zip(two, nativeHands) {
            #expect(vn.chirality == (hand.chirality == .left ? .left : hand.chirality == .right ? .right : .unknown))
            let tip = try vn.recognizedPoint(.indexTip)
            #expect(abs(tip.location.x - hand.recognizedPoint(.indexTip).location.x) < 1e-12)
            #expect(try vn.recognizedPoints(.thumb).count == 4 && vn.availableJointNames.count == 21)
        }
        #expect(Set(two.map(\.chirality)) == [.left, .right])
    }

    @Test func personSegmentationFormats() throws {
        func mask(_ format: OSType) throws -> VNPixelBufferObservation {
            let request = VNGeneratePersonSegmentationRequest()
            request.qualityLevel = .balanced
            request.outputPixelFormat = format
            try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request])
            return try #require(request.results?.first as? VNPixelBufferObservation)
        }
        let eight = try mask(kCVPixelFormatType_OneComponent8)
        let float = try mask(kCVPixelFormatType_OneComponent32Float)
        let half = try mask(kCVPixelFormatType_OneComponent16Half)
        #expect(eight.values.width == 640 && eight.values.height == 424)
        // 8-bit values are multiples of 1/255; half-floats are the float values rounded to Float16.
        #expect(eight.values.values.allSatisfy { abs($0 * 255 - ($0 * 255).rounded()) < 1e-3 })
        #expect(zip(half.values.values, float.values.values).allSatisfy { $0 == Float(Float16($1)) })
        #expect(zip(half.values.values, float.values.values).contains { $0 != $1 })
        let unknown = VNGeneratePersonSegmentationRequest()
        unknown.outputPixelFormat = 0x4241_4144  // 'BAAD'
        #expect(throws: VNError.self) {
            try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([unknown])
        }
    }

    /// A mix of gray and colour requests decodes the file once, as `ImageRequestHandler` plans it (it used to decode
    /// the gray plane for the first request and colour again for the second).
    @Test func mixedRequestsDecodeOnce() throws {
        let handler = VNImageRequestHandler(url: Fixtures.sharedImage("dog.jpg"))
        let barcodes = VNDetectBarcodesRequest()
        let animals = VNRecognizeAnimalsRequest()
        try handler.perform([barcodes, animals])
        #expect(handler.handler.context.decodeCount == 1)
        #expect((animals.results as? [VNRecognizedObjectObservation])?.first?.labels.first?.identifier == "Dog")
        // Gray requests alone: one luma decode.
        let gray = VNImageRequestHandler(url: Fixtures.sharedImage("dog.jpg"))
        try gray.perform([VNDetectBarcodesRequest(), VNDetectRectanglesRequest()])
        #expect(gray.handler.context.decodeCount == 1)
    }
}
