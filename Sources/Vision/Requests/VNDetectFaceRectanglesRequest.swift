import Foundation
import OpenVision

/// Vision's face detector (OpenVision's `DetectFaceRectanglesRequest`): `revision` 1 is dlib's HOG detector,
/// 2 and 3 MediaPipe's BlazeFace short and full range. The default is revision 1, OpenVision's default detector (it
/// found more of the faces of OpenVision's face set than BlazeFace), not Apple's 3: set `revision` for BlazeFace.
open class VNDetectFaceRectanglesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFaceObservation]? { storedResults as? [VNFaceObservation] }
    /// Apple's revisions 1, 2, 3 (`VNDetectFaceRectanglesRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Revision 1 (Apple's default is 3): OpenVision's `DetectFaceRectanglesRequest.Revision.defaultRevision`.
    override open class var defaultRevision: Int { DetectFaceRectanglesRequest.Revision.defaultRevision.rawValue }
    override open class var currentRevision: Int { VNDetectFaceRectanglesRequestRevision3 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let chosen = DetectFaceRectanglesRequest.Revision(rawValue: revision) else {
            throw VisionError(.unsupported, "VNDetectFaceRectanglesRequest revision \(revision) is not supported (1, 2 or 3)")
        }
        let request = DetectFaceRectanglesRequest(chosen)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
