import OpenVision

/// Vision's feature print (OpenVision's `GenerateImageFeaturePrintRequest`).
open class VNGenerateImageFeaturePrintRequest: VNImageBasedRequest {
    public var imageCropAndScaleOption: VNImageCropAndScaleOption = .scaleFill

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = GenerateImageFeaturePrintRequest()
        request.imageCropAndScaleOption = imageCropAndScaleOption.native
        return [VNFeaturePrintObservation(try perform(request, in: context))]
    }
}
