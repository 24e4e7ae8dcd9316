import Foundation
import OpenVision

/// Vision's image classifier: OpenVision's `ClassifyImageRequest` on the default ImageNet classifier, answering
/// Apple's 1,303 identifiers (`AppleTaxonomy`: "german_shepherd", "dog", "canine", "mammal", "animal" with summed
/// confidences), every one of them, most confident first.
open class VNClassifyImageRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNClassificationObservation]? { storedResults as? [VNClassificationObservation] }
    /// Apple's revisions 1, 2 (`VNClassifyImageRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNClassifyImageRequestRevision2 }
    /// Vision's current revision, `VNClassifyImageRequestRevision2`.
    override open class var currentRevision: Int { VNClassifyImageRequestRevision2 }

    /// Apple's identifiers at `requestRevision`, each as an observation of confidence 0 (Vision's deprecated class
    /// method; both revisions answer the same 1,303). `VNError.unsupportedRevision` outside `supportedRevisions`.
    open class func knownClassifications(forRevision requestRevision: Int) throws -> [VNClassificationObservation] {
        guard supportedRevisions.contains(requestRevision) else {
            throw VNError(
                .unsupportedRevision,
                "VNClassifyImageRequest revision \(requestRevision) is not supported "
                    + "(supported: \(supportedRevisions.map(String.init).joined(separator: ", ")))")
        }
        return AppleTaxonomy.identifiers.map {
            VNClassificationObservation(ClassificationObservation(identifier: $0, confidence: 0))
        }
    }

    /// The identifiers this request answers at its revision: Apple's 1,303 (`AppleTaxonomy.identifiers`).
    public func supportedIdentifiers() throws -> [String] { AppleTaxonomy.identifiers }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = ClassifyImageRequest()
        request.taxonomy = .apple
        request.maximumObservations = 0  // Vision returns every class
        return try perform(request, in: context).map(VNClassificationObservation.init)
    }
}
