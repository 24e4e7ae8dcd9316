import Foundation
import OpenVision

/// Vision's text regions without reading (OpenVision's `DetectTextRectanglesRequest`).
open class VNDetectTextRectanglesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNTextObservation]? { storedResults as? [VNTextObservation] }
    /// Apple's revision 1 (`VNDetectTextRectanglesRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectTextRectanglesRequestRevision1 }
    /// Vision's current revision, `VNDetectTextRectanglesRequestRevision1`.
    override open class var currentRevision: Int { VNDetectTextRectanglesRequestRevision1 }

    /// True: each observation carries its characters' boxes (`characterBoxes`). Default false.
    public var reportCharacterBoxes = false

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectTextRectanglesRequest()
        request.reportCharacterBoxes = reportCharacterBoxes
        return try perform(request, in: context).map(VNTextObservation.init)
    }
}
