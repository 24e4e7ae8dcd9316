import Foundation
import OpenVision

/// Vision's cats and dogs (OpenVision's `RecognizeAnimalsRequest`, the built-in detector).
open class VNRecognizeAnimalsRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNRecognizedObjectObservation]? { storedResults as? [VNRecognizedObjectObservation] }
    /// Apple's revisions 1, 2 (`VNRecognizeAnimalsRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNRecognizeAnimalsRequestRevision2 }
    /// Vision's current revision, `VNRecognizeAnimalsRequestRevision2`.
    override open class var currentRevision: Int { VNRecognizeAnimalsRequestRevision2 }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = RecognizeAnimalsRequest()
        return try perform(request, in: context).map(VNRecognizedObjectObservation.init)
    }
}
