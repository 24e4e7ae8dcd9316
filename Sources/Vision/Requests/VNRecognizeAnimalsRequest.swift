import OpenVision

/// Vision's cats and dogs (OpenVision's `RecognizeAnimalsRequest`, the built-in detector).
open class VNRecognizeAnimalsRequest: VNImageBasedRequest {

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = RecognizeAnimalsRequest()
        return try perform(request, in: context).map(VNRecognizedObjectObservation.init)
    }
}
