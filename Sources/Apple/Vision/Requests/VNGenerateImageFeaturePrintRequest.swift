import Foundation
import OpenVision

/// Vision's feature print (OpenVision's `GenerateImageFeaturePrintRequest`).
open class VNGenerateImageFeaturePrintRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNFeaturePrintObservation]? { storedResults as? [VNFeaturePrintObservation] }
    /// Apple's revisions 1, 2 (`VNGenerateImageFeaturePrintRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNGenerateImageFeaturePrintRequestRevision2 }
    /// Vision's current revision, `VNGenerateImageFeaturePrintRequestRevision2`.
    override open class var currentRevision: Int { VNGenerateImageFeaturePrintRequestRevision2 }

    /// How images fit the model's input. Default `.scaleFill`, as Vision.
    public var imageCropAndScaleOption: VNImageCropAndScaleOption = .scaleFill

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = GenerateImageFeaturePrintRequest()
        request.imageCropAndScaleOption = imageCropAndScaleOption.native
        return [VNFeaturePrintObservation(try perform(request, in: context))]
    }
}
