import OpenVision

/// Vision's attention saliency (OpenVision's `GenerateAttentionBasedSaliencyImageRequest`).
open class VNGenerateAttentionBasedSaliencyImageRequest: VNImageBasedRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        [VNSaliencyImageObservation(try perform(GenerateAttentionBasedSaliencyImageRequest(), in: context))]
    }
}
