import Foundation
import OpenVision

/// Vision's person instance mask request (OpenVision's `GeneratePersonInstanceMaskRequest`: MediaPipe BlazePose's
/// per-person segmentation): one `VNInstanceMaskObservation` telling up to 4 people apart; no observation when
/// nobody is found.
open class VNGeneratePersonInstanceMaskRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNInstanceMaskObservation]? { storedResults as? [VNInstanceMaskObservation] }
    /// Apple's revision 1 (`VNGeneratePersonInstanceMaskRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNGeneratePersonInstanceMaskRequestRevision1 }
    /// Vision's current revision, `VNGeneratePersonInstanceMaskRequestRevision1`.
    override open class var currentRevision: Int { VNGeneratePersonInstanceMaskRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let masks = try perform(GeneratePersonInstanceMaskRequest(), in: context) else { return [] }
        return [try VNInstanceMaskObservation(masks)]
    }
}
