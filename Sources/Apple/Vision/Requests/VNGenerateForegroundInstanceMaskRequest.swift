import Foundation
import OpenVision

/// Revision 1 of `VNGenerateForegroundInstanceMaskRequest` (Apple's value 1).
public let VNGenerateForegroundInstanceMaskRequestRevision1 = 1

/// Vision's foreground ("lift subject") instance mask request (OpenVision's `GenerateForegroundInstanceMaskRequest`:
/// U²-Netp's salient-object mask split into objects by the built-in detector and person masks): one
/// `VNInstanceMaskObservation` of the salient objects; no observation when the image has no foreground.
open class VNGenerateForegroundInstanceMaskRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNInstanceMaskObservation]? { storedResults as? [VNInstanceMaskObservation] }
    /// Apple's revision 1 (`VNGenerateForegroundInstanceMaskRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNGenerateForegroundInstanceMaskRequestRevision1 }
    /// Vision's current revision, `VNGenerateForegroundInstanceMaskRequestRevision1`.
    override open class var currentRevision: Int { VNGenerateForegroundInstanceMaskRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let masks = try perform(GenerateForegroundInstanceMaskRequest(), in: context) else { return [] }
        return [try VNInstanceMaskObservation(masks)]
    }
}
