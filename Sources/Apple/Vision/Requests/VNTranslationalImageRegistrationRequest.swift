import Foundation
import OpenVision

/// Vision's translation between two images (OpenVision's `TranslationalImageRegistrationRequest`).
open class VNTranslationalImageRegistrationRequest: VNImageRegistrationRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNImageTranslationAlignmentObservation]? {
        storedResults as? [VNImageTranslationAlignmentObservation]
    }
    /// Apple's revision 1 (`VNTranslationalImageRegistrationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNTranslationalImageRegistrationRequestRevision1 }
    /// Vision's current revision, `VNTranslationalImageRegistrationRequestRevision1`.
    override open class var currentRevision: Int { VNTranslationalImageRegistrationRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(TranslationalImageRegistrationRequest(targetImage: try targetedImage), in: context)
            .map { [VNImageTranslationAlignmentObservation($0)] } ?? []
    }
}
