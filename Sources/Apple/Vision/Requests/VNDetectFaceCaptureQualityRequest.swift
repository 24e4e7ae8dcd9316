import Foundation
import OpenVision

/// Revision 1 of `VNDetectFaceCaptureQualityRequest` (Apple's value 1).
public let VNDetectFaceCaptureQualityRequestRevision1 = 1
/// Revision 2 of `VNDetectFaceCaptureQualityRequest` (Apple's value 2).
public let VNDetectFaceCaptureQualityRequestRevision2 = 2
/// Revision 3 of `VNDetectFaceCaptureQualityRequest` (Apple's value 3).
public let VNDetectFaceCaptureQualityRequestRevision3 = 3

/// Vision's face capture quality (OpenVision's `DetectFaceCaptureQualityRequest`: a score composed from sharpness,
/// noise, exposure, size, head pose and open eyes, docs/requests.md): each face of `inputFaceObservations` (or each
/// face found, BlazeFace full range) comes back as a `VNFaceObservation` with `faceCaptureQuality` 0…1. Revisions 1,
/// 2 and 3 are accepted and run the same measure.
open class VNDetectFaceCaptureQualityRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFaceObservation]? { storedResults as? [VNFaceObservation] }
    /// Apple's revisions 1, 2, 3 (`VNDetectFaceCaptureQualityRequestRevision1`…), one measure here.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Apple's default: revision 3.
    override open class var defaultRevision: Int { VNDetectFaceCaptureQualityRequestRevision3 }
    /// Vision's current revision, `VNDetectFaceCaptureQualityRequestRevision3`.
    override open class var currentRevision: Int { VNDetectFaceCaptureQualityRequestRevision3 }

    /// Faces to measure (e.g. from a `VNDetectFaceRectanglesRequest`); nil detects them first.
    public var inputFaceObservations: [VNFaceObservation]?

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        let request = DetectFaceCaptureQualityRequest(inputFaceObservations: inputFaceObservations?.map(\.native))
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
