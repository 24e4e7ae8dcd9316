import Foundation
import OpenVision

/// Vision's face detector (OpenVision's `DetectFaceRectanglesRequest`): `revision` 1 is dlib's HOG detector,
/// 2 and 3 MediaPipe's BlazeFace short and full range. The default is Apple's, revision 3: a CNN that finds faces
/// turned and in profile and gives their roll, as Vision's revision 3 does (OpenVision's own `DetectFaceRectanglesRequest`
/// keeps HOG as its default, which found more of the small faces of OpenVision's face set).
open class VNDetectFaceRectanglesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFaceObservation]? { storedResults as? [VNFaceObservation] }
    /// Apple's revisions 1, 2, 3 (`VNDetectFaceRectanglesRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Apple's default: revision 3 (BlazeFace full range here).
    override open class var defaultRevision: Int { VNDetectFaceRectanglesRequestRevision3 }
    /// Vision's current revision, `VNDetectFaceRectanglesRequestRevision3`.
    override open class var currentRevision: Int { VNDetectFaceRectanglesRequestRevision3 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let chosen = DetectFaceRectanglesRequest.Revision(rawValue: revision) else {
            throw VisionError(
                .unsupported, "VNDetectFaceRectanglesRequest revision \(revision) is not supported (1, 2 or 3)")
        }
        let request = DetectFaceRectanglesRequest(chosen)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
