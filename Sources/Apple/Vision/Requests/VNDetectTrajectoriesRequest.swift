import CoreMedia
import Foundation
import OpenVision

/// Vision's trajectories of thrown objects (OpenVision's `DetectTrajectoriesRequest`).
open class VNDetectTrajectoriesRequest: VNStatefulRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNTrajectoryObservation]? { storedResults as? [VNTrajectoryObservation] }
    /// Apple's revision 1 (`VNDetectTrajectoriesRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectTrajectoriesRequestRevision1 }
    /// Vision's current revision, `VNDetectTrajectoriesRequestRevision1`.
    override open class var currentRevision: Int { VNDetectTrajectoriesRequestRevision1 }

    let native: DetectTrajectoriesRequest
    /// Objects smaller than this radius (a fraction of the image width) are ignored. Default 0.
    public var objectMinimumNormalizedRadius: Float {
        get { native.objectMinimumNormalizedRadius }
        set { native.objectMinimumNormalizedRadius = newValue }
    }
    /// Objects larger than this radius (a fraction of the image width) are ignored. Default 1.
    public var objectMaximumNormalizedRadius: Float {
        get { native.objectMaximumNormalizedRadius }
        set { native.objectMaximumNormalizedRadius = newValue }
    }
    /// The points a trajectory needs before it is reported, and the points it reports.
    public var trajectoryLength: Int { native.trajectoryLength }
    /// The time between frames that carry no timestamp (Vision's `targetFrameTime`; default 1/30 s): frames from a
    /// capture or a video have their own times, images handed over one by one are this far apart. Must be positive.
    public var targetFrameTime: CMTime {
        get { CMTime(duration: native.targetFrameTime) }
        set { native.targetFrameTime = newValue.duration }
    }

    /// Analyses frames at least `frameAnalysisSpacing` apart (`.zero`: every frame), reporting
    /// trajectories of `trajectoryLength` points.
    public init(frameAnalysisSpacing: CMTime, trajectoryLength: Int, completionHandler: CompletionHandler? = nil) {
        native = DetectTrajectoriesRequest(
            frameAnalysisSpacing: frameAnalysisSpacing.duration, trajectoryLength: trajectoryLength)
        super.init(completionHandler: completionHandler)
        self.frameAnalysisSpacing = frameAnalysisSpacing
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map(VNTrajectoryObservation.init)
    }
}
