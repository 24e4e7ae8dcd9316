import Foundation
import OpenVision

/// Vision's face landmarks (OpenVision's `DetectFaceLandmarksRequest`): revision 3 (Apple's default) is MediaPipe's face
/// mesh and iris in Vision's 76-point constellation (or 65 with `constellation`); revisions 1 and 2 run dlib's 68 points
/// grouped as Vision's regions (docs/porting.md).
open class VNDetectFaceLandmarksRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFaceObservation]? { storedResults as? [VNFaceObservation] }
    /// Apple's revisions 1, 2, 3 (`VNDetectFaceLandmarksRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Apple's default: revision 3.
    override open class var defaultRevision: Int { VNDetectFaceLandmarksRequestRevision3 }
    /// Vision's current revision, `VNDetectFaceLandmarksRequestRevision3`.
    override open class var currentRevision: Int { VNDetectFaceLandmarksRequestRevision3 }

    /// Faces to find landmarks in (e.g. from a `VNDetectFaceRectanglesRequest`); nil detects them first.
    public var inputFaceObservations: [VNFaceObservation]?
    /// Revision 3's constellation: `.constellation76Points` (the default, `.constellationNotDefined` means it too) or
    /// `.constellation65Points`. Revisions 1 and 2 give dlib's 68 points whatever this says.
    public var constellation: VNRequestFaceLandmarksConstellation = .constellationNotDefined

    /// Whether `revision` gives `constellation`, as Apple's: revision 3 gives 76 and 65 points; here revisions 1 and 2
    /// give dlib's 68, neither of Vision's constellations.
    open class func revision(
        _ requestRevision: Int, supportsConstellation constellation: VNRequestFaceLandmarksConstellation
    ) -> Bool {
        requestRevision == VNDetectFaceLandmarksRequestRevision3 && constellation != .constellationNotDefined
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectFaceLandmarksRequest(revision == VNDetectFaceLandmarksRequestRevision3 ? .faceMesh : .dlib)
        request.constellation = constellation == .constellation65Points ? .points65 : .points76
        request.inputFaceObservations = inputFaceObservations?.map(\.native)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
