import OpenVision

/// Vision's image classifier (OpenVision's `ClassifyImageRequest`: the default ImageNet classifier).
open class VNClassifyImageRequest: VNImageBasedRequest {

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = ClassifyImageRequest()
        request.maximumObservations = 0  // Vision returns every class
        return try perform(request, in: context).map(VNClassificationObservation.init)
    }
}
