import OpenVision

/// Vision's objectness saliency (OpenVision's `GenerateObjectnessBasedSaliencyImageRequest`).
open class VNGenerateObjectnessBasedSaliencyImageRequest: VNImageBasedRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        [VNSaliencyImageObservation(try perform(GenerateObjectnessBasedSaliencyImageRequest(), in: context))]
    }
}
