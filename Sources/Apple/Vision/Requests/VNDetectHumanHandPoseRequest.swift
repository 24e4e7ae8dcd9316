import Foundation
import OpenVision

/// Vision's hand-pose request (OpenVision's `DetectHumanHandPoseRequest`: MediaPipe's palm and hand models): one
/// `VNHumanHandPoseObservation` per hand, at most `maximumHandCount`.
open class VNDetectHumanHandPoseRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNHumanHandPoseObservation]? { storedResults as? [VNHumanHandPoseObservation] }
    /// Apple's revision 1 (`VNDetectHumanHandPoseRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectHumanHandPoseRequestRevision1 }
    /// Vision's current revision, `VNDetectHumanHandPoseRequestRevision1`.
    override open class var currentRevision: Int { VNDetectHumanHandPoseRequestRevision1 }

    /// Most hands reported, best first. Default 2, as Vision.
    public var maximumHandCount = 2

    /// The joints observations have.
    public static func supportedJointNames() throws -> [VNHumanHandPoseObservation.JointName] {
        HumanHandPoseObservation.JointName.allCases.map(VNHumanHandPoseObservation.JointName.init)
    }

    /// The joint groups observations have.
    public static func supportedJointsGroupNames() throws -> [VNHumanHandPoseObservation.JointsGroupName] {
        HumanHandPoseObservation.JointsGroupName.allCases.map(VNHumanHandPoseObservation.JointsGroupName.init)
    }

    /// Every joint name this request reports (Vision's instance form); never throws here.
    public func supportedJointNames() throws -> [VNHumanHandPoseObservation.JointName] {
        try Self.supportedJointNames()
    }
    /// Every joint group this request reports (Vision's instance form); never throws here.
    public func supportedJointsGroupNames() throws -> [VNHumanHandPoseObservation.JointsGroupName] {
        try Self.supportedJointsGroupNames()
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectHumanHandPoseRequest()
        request.maximumHandCount = maximumHandCount
        return try perform(request, in: context).map(VNHumanHandPoseObservation.init)
    }
}
