import Foundation
import OpenVision

/// Vision's image classifier (OpenVision's `ClassifyImageRequest`: the default ImageNet classifier).
open class VNClassifyImageRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNClassificationObservation]? { storedResults as? [VNClassificationObservation] }
    /// Apple's revisions 1, 2 (`VNClassifyImageRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNClassifyImageRequestRevision2 }
    /// Vision's current revision, `VNClassifyImageRequestRevision2`.
    override open class var currentRevision: Int { VNClassifyImageRequestRevision2 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = ClassifyImageRequest()
        request.maximumObservations = 0  // Vision returns every class
        return try perform(request, in: context).map(VNClassificationObservation.init)
    }
}
