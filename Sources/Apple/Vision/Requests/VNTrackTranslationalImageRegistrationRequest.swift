import Foundation
import OpenVision

/// Vision's frame-to-frame translation (OpenVision's `TrackTranslationalImageRegistrationRequest`).
open class VNTrackTranslationalImageRegistrationRequest: VNStatefulRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNImageTranslationAlignmentObservation]? {
        storedResults as? [VNImageTranslationAlignmentObservation]
    }
    /// Apple's revision 1 (`VNTrackTranslationalImageRegistrationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNTrackTranslationalImageRegistrationRequestRevision1 }
    /// Vision's current revision, `VNTrackTranslationalImageRegistrationRequestRevision1`.
    override open class var currentRevision: Int { VNTrackTranslationalImageRegistrationRequestRevision1 }

    let native = TrackTranslationalImageRegistrationRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map { [VNImageTranslationAlignmentObservation($0)] } ?? []
    }
}
