import Foundation
import OpenVision

/// Vision's body-pose request (OpenVision's `DetectHumanBodyPoseRequest`: MediaPipe's BlazePose): one
/// `VNHumanBodyPoseObservation` per person.
open class VNDetectHumanBodyPoseRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNHumanBodyPoseObservation]? { storedResults as? [VNHumanBodyPoseObservation] }
    /// Apple's revision 1 (`VNDetectHumanBodyPoseRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectHumanBodyPoseRequestRevision1 }
    /// Vision's current revision, `VNDetectHumanBodyPoseRequestRevision1`.
    override open class var currentRevision: Int { VNDetectHumanBodyPoseRequestRevision1 }

    /// The joints observations have.
    public static func supportedJointNames() throws -> [VNHumanBodyPoseObservation.JointName] {
        HumanBodyPoseObservation.JointName.allCases.map(VNHumanBodyPoseObservation.JointName.init)
    }

    /// The joint groups observations have.
    public static func supportedJointsGroupNames() throws -> [VNHumanBodyPoseObservation.JointsGroupName] {
        HumanBodyPoseObservation.JointsGroupName.allCases.map(VNHumanBodyPoseObservation.JointsGroupName.init)
    }

    /// Every joint name this request reports (Vision's instance form); never throws here.
    public func supportedJointNames() throws -> [VNHumanBodyPoseObservation.JointName] {
        try Self.supportedJointNames()
    }
    /// Every joint group this request reports (Vision's instance form); never throws here.
    public func supportedJointsGroupNames() throws -> [VNHumanBodyPoseObservation.JointsGroupName] {
        try Self.supportedJointsGroupNames()
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectHumanBodyPoseRequest(), in: context).map(VNHumanBodyPoseObservation.init)
    }
}
