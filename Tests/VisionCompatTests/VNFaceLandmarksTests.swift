import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision
@testable import Vision

/// `VNDetectFaceLandmarksRequest` as Vision's: revision 3 (the default) gives the 76-point constellation with precision
/// estimates and a pitch, the 65-point one on request; revisions 1 and 2 run dlib's 68 points; faces can be given.
@Suite struct VNFaceLandmarksTests {
    static let astronaut = try! VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))

    @Test func revision3GivesVisionsConstellations() throws {
        let request = VNDetectFaceLandmarksRequest()
        #expect(request.revision == VNDetectFaceLandmarksRequestRevision3)
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([request])
        let face = try #require(request.results?.first)
        let landmarks = try #require(face.landmarks)
        #expect(
            landmarks.allPoints?.pointCount == 76 && landmarks.leftEye?.pointCount == 8
                && landmarks.outerLips?.pointCount == 14)
        #expect(
            landmarks.leftEye?.precisionEstimatesPerPoint?.count == 8 && face.pitch != nil && face.roll != nil
                && face.yaw != nil)
        // The same points as OpenVision's own request.
        let native = try DetectFaceLandmarksRequest().perform(in: ImageRequestHandler(image: Self.astronaut).context)
        #expect(
            landmarks.allPoints?.normalizedPoints == native.first?.landmarks?.allPoints.normalizedPoints.map(\.cgPoint))
        #expect(face.roll?.doubleValue == native.first?.roll)

        let r65 = VNDetectFaceLandmarksRequest()
        r65.constellation = .constellation65Points
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([r65])
        #expect(r65.results?.first?.landmarks?.allPoints?.pointCount == 65)
        #expect(
            VNDetectFaceLandmarksRequest.revision(3, supportsConstellation: .constellation76Points)
                && VNDetectFaceLandmarksRequest.revision(3, supportsConstellation: .constellation65Points)
                && !VNDetectFaceLandmarksRequest.revision(2, supportsConstellation: .constellation65Points))
    }

    @Test func revision2IsDlib() throws {
        let request = VNDetectFaceLandmarksRequest()
        request.revision = VNDetectFaceLandmarksRequestRevision2
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([request])
        let face = try #require(request.results?.first)
        #expect(
            face.landmarks?.allPoints?.pointCount == 68 && face.landmarks?.leftEye?.precisionEstimatesPerPoint == nil
                && face.pitch == nil)
    }

    /// A face given by box and roll (Apple's initializer): its 76 points.
    @Test func givenFace() throws {
        let request = VNDetectFaceLandmarksRequest()
        request.inputFaceObservations = [
            VNFaceObservation(
                requestRevision: 3, boundingBox: CGRect(x: 0.26, y: 0.26, width: 0.49, height: 0.49),
                roll: 0, yaw: nil)
        ]
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.astronaut)).perform([request])
        #expect(request.results?.count == 1 && request.results?.first?.landmarks?.allPoints?.pointCount == 76)
    }
}
