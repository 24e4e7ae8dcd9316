import OpenVision

/// Vision's body-pose request (OpenVision's `DetectHumanBodyPoseRequest`: MediaPipe's BlazePose): one
/// `VNHumanBodyPoseObservation` per person.
open class VNDetectHumanBodyPoseRequest: VNImageBasedRequest {
    /// The joints observations have.
    public static func supportedJointNames() throws -> [VNHumanBodyPoseObservation.JointName] {
        HumanBodyPoseObservation.JointName.allCases.map(VNHumanBodyPoseObservation.JointName.init)
    }

    /// The joint groups observations have.
    public static func supportedJointsGroupNames() throws -> [VNHumanBodyPoseObservation.JointsGroupName] {
        HumanBodyPoseObservation.JointsGroupName.allCases.map(VNHumanBodyPoseObservation.JointsGroupName.init)
    }

    public func supportedJointNames() throws -> [VNHumanBodyPoseObservation.JointName] { try Self.supportedJointNames() }
    public func supportedJointsGroupNames() throws -> [VNHumanBodyPoseObservation.JointsGroupName] { try Self.supportedJointsGroupNames() }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectHumanBodyPoseRequest(), in: context).map(VNHumanBodyPoseObservation.init)
    }
}
