import Foundation
import OpenVision

/// Vision's frame-to-frame optical flow (OpenVision's `TrackOpticalFlowRequest`).
open class VNTrackOpticalFlowRequest: VNStatefulRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNPixelBufferObservation]? { storedResults as? [VNPixelBufferObservation] }
    /// Apple's revision 1 (`VNTrackOpticalFlowRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNTrackOpticalFlowRequestRevision1 }
    /// Vision's current revision, `VNTrackOpticalFlowRequestRevision1`.
    override open class var currentRevision: Int { VNTrackOpticalFlowRequestRevision1 }

    let native = TrackOpticalFlowRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let flow = try perform(native, in: context) else { return [] }
        return [try VNPixelBufferObservation(flow)]
    }
}
