import Foundation
import OpenVision

/// Vision's people (OpenVision's `DetectHumanRectanglesRequest`, the built-in detector).
open class VNDetectHumanRectanglesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNHumanObservation]? { storedResults as? [VNHumanObservation] }
    /// Apple's revisions 1, 2 (`VNDetectHumanRectanglesRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNDetectHumanRectanglesRequestRevision2 }
    /// Vision's current revision, `VNDetectHumanRectanglesRequestRevision2`.
    override open class var currentRevision: Int { VNDetectHumanRectanglesRequestRevision2 }

    /// Default true, as Vision.
    public var upperBodyOnly = true

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectHumanRectanglesRequest()
        request.upperBodyOnly = upperBodyOnly
        return try perform(request, in: context).map(VNHumanObservation.init)
    }
}
