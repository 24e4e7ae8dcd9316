import Foundation
import OpenVision

/// Vision's objectness saliency (OpenVision's `GenerateObjectnessBasedSaliencyImageRequest`).
open class VNGenerateObjectnessBasedSaliencyImageRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNSaliencyImageObservation]? { storedResults as? [VNSaliencyImageObservation] }
    /// Apple's revisions 1, 2 (`VNGenerateObjectnessBasedSaliencyImageRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNGenerateObjectnessBasedSaliencyImageRequestRevision2 }
    /// Vision's current revision, `VNGenerateObjectnessBasedSaliencyImageRequestRevision2`.
    override open class var currentRevision: Int { VNGenerateObjectnessBasedSaliencyImageRequestRevision2 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        [try VNSaliencyImageObservation(try perform(GenerateObjectnessBasedSaliencyImageRequest(), in: context))]
    }
}
