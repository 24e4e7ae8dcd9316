import Foundation
import OpenVision

/// Revision 1 of `VNCalculateImageAestheticsScoresRequest` (Apple's value 1).
public let VNCalculateImageAestheticsScoresRequestRevision1 = 1

/// Vision's aesthetics scores (OpenVision's `CalculateImageAestheticsScoresRequest`: a score composed from sharpness,
/// noise, exposure, JPEG blockiness and colourfulness, and `isUtility` from text coverage on a flat background;
/// docs/requests.md): one `VNImageAestheticsScoresObservation`.
open class VNCalculateImageAestheticsScoresRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNImageAestheticsScoresObservation]? {
        storedResults as? [VNImageAestheticsScoresObservation]
    }
    /// Apple's revision 1 (`VNCalculateImageAestheticsScoresRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNCalculateImageAestheticsScoresRequestRevision1 }
    /// Vision's current revision, `VNCalculateImageAestheticsScoresRequestRevision1`.
    override open class var currentRevision: Int { VNCalculateImageAestheticsScoresRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        [VNImageAestheticsScoresObservation(try perform(CalculateImageAestheticsScoresRequest(), in: context))]
    }
}
