import Foundation
import OpenVision

/// Vision's face landmarks (OpenVision's `DetectFaceLandmarksRequest`, dlib's 68 points as Vision's regions).
open class VNDetectFaceLandmarksRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFaceObservation]? { storedResults as? [VNFaceObservation] }
    /// Apple's revisions 1, 2, 3 (`VNDetectFaceLandmarksRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Apple's default: revision 3.
    override open class var defaultRevision: Int { VNDetectFaceLandmarksRequestRevision3 }
    override open class var currentRevision: Int { VNDetectFaceLandmarksRequestRevision3 }

    /// Faces to find landmarks in (e.g. from a `VNDetectFaceRectanglesRequest`); nil detects them first.
    public var inputFaceObservations: [VNFaceObservation]?

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = inputFaceObservations?.map(\.native)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
