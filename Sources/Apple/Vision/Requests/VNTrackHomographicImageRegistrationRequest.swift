import Foundation
import OpenVision

/// Vision's frame-to-frame homography (OpenVision's `TrackHomographicImageRegistrationRequest`).
open class VNTrackHomographicImageRegistrationRequest: VNStatefulRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNImageHomographicAlignmentObservation]? {
        storedResults as? [VNImageHomographicAlignmentObservation]
    }
    /// Apple's revision 1 (`VNTrackHomographicImageRegistrationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNTrackHomographicImageRegistrationRequestRevision1 }
    /// Vision's current revision, `VNTrackHomographicImageRegistrationRequestRevision1`.
    override open class var currentRevision: Int { VNTrackHomographicImageRegistrationRequestRevision1 }

    let native = TrackHomographicImageRegistrationRequest()

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(native, in: context).map { [VNImageHomographicAlignmentObservation($0)] } ?? []
    }
}
