import CoreML
import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision
@testable import Vision

/// Vision's 3D body pose and person instance mask requests (`VNDetectHumanBodyPose3DRequest`,
/// `VNGeneratePersonInstanceMaskRequest`) give what OpenVision's own requests give, through Vision's API.
@Suite struct VNPeople3DTests {
    static let person = try! VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))

    @Test func bodyPose3DByJointAndGroup() throws {
        let request = VNDetectHumanBodyPose3DRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request])
        let poses = try #require(request.results)
        let native = try DetectHumanBodyPose3DRequest().perform(in: ImageRequestHandler(image: Self.person).context)
        #expect(poses.count == 1 && native.count == 1)
        let pose = try #require(poses.first)
        #expect(pose.availableJointNames.count == 17 && pose.availableJointsGroupNames.count == 7)
        #expect(pose.bodyHeight == 1.8 && pose.heightEstimation == .reference)
        let wrist = try pose.recognizedPoint(.leftWrist)
        #expect(wrist.identifier == "leftWrist" && wrist.parentJoint == .leftElbow)
        #expect(wrist.position.columns.3.x == native[0].position(.leftWrist).x)
        let elbow = try pose.recognizedPoint(.leftElbow)
        #expect(abs(wrist.localPosition.columns.3.y - (wrist.position.columns.3.y - elbow.position.columns.3.y)) < 1e-6)
        #expect(try pose.recognizedPoint(.root).position == matrix_identity_float4x4)
        #expect(Set(try pose.recognizedPoints(.head).keys) == [.topHead, .centerHead])
        #expect(try pose.recognizedPoints(.all).count == 17)
        let point = try pose.pointInImage(.leftWrist)
        #expect(point.x == native[0].pointInImage(.leftWrist).x && point.y == native[0].pointInImage(.leftWrist).y)
        var relative = matrix_identity_float4x4
        try pose.getCameraRelativePosition(&relative, for: .root)
        #expect(relative.columns.3.z == -pose.cameraOriginMatrix.columns.3.z)
        #expect(pose.parentJointName(.root) == nil && pose.parentJointName(.spine) == .root)
        #expect(throws: VNError.self) {
            try pose.recognizedPoint(VNHumanBodyPose3DObservation.JointName(rawValue: "tail"))
        }
        #expect(try VNDetectHumanBodyPose3DRequest.supportedJointNames().count == 17)
        #expect(VNDetectHumanBodyPose3DRequest.defaultRevision == VNDetectHumanBodyPose3DRequestRevision1)
    }

    @Test func personInstanceMask() throws {
        let request = VNGeneratePersonInstanceMaskRequest()
        let handler = VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person))
        try handler.perform([request])
        let observation = try #require(request.results?.first)
        #expect(observation.allInstances == IndexSet([1]))
        let labels = observation.instanceMask
        #expect(CVPixelBufferGetWidth(labels) == 640 && CVPixelBufferGetHeight(labels) == 424)
        #expect(CVPixelBufferGetPixelFormatType(labels) == kCVPixelFormatType_OneComponent8)
        let mask = try observation.generateMask(forInstances: observation.allInstances)
        let native = try observation.native.generateMask(forInstances: [1])
        let ones = native.values.filter { $0 == 1 }.count
        #expect(ones > 10_000 && CVPixelBufferGetWidth(mask) == 640)
        #expect(CVPixelBufferGetPixelFormatType(mask) == kCVPixelFormatType_OneComponent32Float)
        let scaled = try observation.generateScaledMaskForImage(forInstances: [1], from: handler)
        #expect(CVPixelBufferGetWidth(scaled) == 640 && CVPixelBufferGetHeight(scaled) == 424)
        let masked = try observation.generateMaskedImage(
            ofInstances: [1], from: handler, croppedToInstancesExtent: true)
        #expect(CVPixelBufferGetWidth(masked) < 640 && CVPixelBufferGetHeight(masked) < 424)
        #expect(throws: VNError.self) { try observation.generateMask(forInstances: [3]) }

        let nobody = VNGeneratePersonInstanceMaskRequest()
        try VNImageRequestHandler(url: Fixtures.sharedImage("dog.jpg")).perform([nobody])
        #expect(nobody.results?.isEmpty == true)
    }
}
