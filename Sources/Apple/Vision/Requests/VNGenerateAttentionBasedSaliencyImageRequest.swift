import Foundation
import OpenVision

/// Vision's attention saliency (OpenVision's `GenerateAttentionBasedSaliencyImageRequest`).
open class VNGenerateAttentionBasedSaliencyImageRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNSaliencyImageObservation]? { storedResults as? [VNSaliencyImageObservation] }
    /// Apple's revisions 1, 2 (`VNGenerateAttentionBasedSaliencyImageRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNGenerateAttentionBasedSaliencyImageRequestRevision2 }
    /// Vision's current revision, `VNGenerateAttentionBasedSaliencyImageRequestRevision2`.
    override open class var currentRevision: Int { VNGenerateAttentionBasedSaliencyImageRequestRevision2 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        [try VNSaliencyImageObservation(try perform(GenerateAttentionBasedSaliencyImageRequest(), in: context))]
    }
}
