import OpenVision

/// Vision's horizon (OpenVision's `DetectHorizonRequest`); no result when there is none.
open class VNDetectHorizonRequest: VNImageBasedRequest {
    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        try perform(DetectHorizonRequest(), in: context).map { [VNHorizonObservation($0)] } ?? []
    }
}
