import OpenVision

/// Vision's document finder (OpenVision's `DetectDocumentSegmentationRequest`).
open class VNDetectDocumentSegmentationRequest: VNImageBasedRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectDocumentSegmentationRequest(), in: context).map { [VNRectangleObservation($0)] } ?? []
    }
}
