import Foundation
import OpenVision

/// Vision's homography between two images (OpenVision's `HomographicImageRegistrationRequest`).
open class VNHomographicImageRegistrationRequest: VNImageRegistrationRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNImageHomographicAlignmentObservation]? {
        storedResults as? [VNImageHomographicAlignmentObservation]
    }
    /// Apple's revision 1 (`VNHomographicImageRegistrationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNHomographicImageRegistrationRequestRevision1 }
    /// Vision's current revision, `VNHomographicImageRegistrationRequestRevision1`.
    override open class var currentRevision: Int { VNHomographicImageRegistrationRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(HomographicImageRegistrationRequest(targetImage: try targetedImage), in: context)
            .map { [VNImageHomographicAlignmentObservation($0)] } ?? []
    }
}
