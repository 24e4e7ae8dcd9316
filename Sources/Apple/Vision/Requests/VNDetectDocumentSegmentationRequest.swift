import Foundation
import OpenVision

/// Vision's document finder (OpenVision's `DetectDocumentSegmentationRequest`).
open class VNDetectDocumentSegmentationRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNRectangleObservation]? { storedResults as? [VNRectangleObservation] }
    /// Apple's revision 1 (`VNDetectDocumentSegmentationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectDocumentSegmentationRequestRevision1 }
    /// Vision's current revision, `VNDetectDocumentSegmentationRequestRevision1`.
    override open class var currentRevision: Int { VNDetectDocumentSegmentationRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectDocumentSegmentationRequest(), in: context).map { [VNRectangleObservation($0)] } ?? []
    }
}
