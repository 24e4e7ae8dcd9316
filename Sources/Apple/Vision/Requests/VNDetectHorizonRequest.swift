import Foundation
import OpenVision

/// Vision's horizon (OpenVision's `DetectHorizonRequest`); no result when there is none.
open class VNDetectHorizonRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNHorizonObservation]? { storedResults as? [VNHorizonObservation] }
    /// Apple's revision 1 (`VNDetectHorizonRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectHorizonRequestRevision1 }
    /// Vision's current revision, `VNDetectHorizonRequestRevision1`.
    override open class var currentRevision: Int { VNDetectHorizonRequestRevision1 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectHorizonRequest(), in: context).map { [VNHorizonObservation($0)] } ?? []
    }
}
