import Foundation
import OpenVision

/// Vision's 3D body-pose request (OpenVision's `DetectHumanBodyPose3DRequest`: MediaPipe BlazePose's world
/// landmarks): one `VNHumanBodyPose3DObservation` for the most prominent person.
open class VNDetectHumanBodyPose3DRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNHumanBodyPose3DObservation]? { storedResults as? [VNHumanBodyPose3DObservation] }
    /// Apple's revision 1 (`VNDetectHumanBodyPose3DRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectHumanBodyPose3DRequestRevision1 }
    /// Vision's current revision, `VNDetectHumanBodyPose3DRequestRevision1`.
    override open class var currentRevision: Int { VNDetectHumanBodyPose3DRequestRevision1 }

    /// The joints observations have.
    public static func supportedJointNames() throws -> [VNHumanBodyPose3DObservation.JointName] {
        HumanBodyPose3DObservation.JointName.allCases.map(VNHumanBodyPose3DObservation.JointName.init)
    }

    /// The joint groups observations have.
    public static func supportedJointsGroupNames() throws -> [VNHumanBodyPose3DObservation.JointsGroupName] {
        HumanBodyPose3DObservation.JointsGroupName.allCases.map(VNHumanBodyPose3DObservation.JointsGroupName.init)
    }

    /// Every joint name this request reports (Vision's instance form); never throws here.
    public func supportedJointNames() throws -> [VNHumanBodyPose3DObservation.JointName] {
        try Self.supportedJointNames()
    }
    /// Every joint group this request reports (Vision's instance form); never throws here.
    public func supportedJointsGroupNames() throws -> [VNHumanBodyPose3DObservation.JointsGroupName] {
        try Self.supportedJointsGroupNames()
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectHumanBodyPose3DRequest(), in: context).map(VNHumanBodyPose3DObservation.init)
    }
}
