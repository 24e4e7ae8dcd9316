import OpenVision

/// Vision's text regions without reading (OpenVision's `DetectTextRectanglesRequest`).
open class VNDetectTextRectanglesRequest: VNImageBasedRequest {
    public var reportCharacterBoxes = false

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectTextRectanglesRequest()
        request.reportCharacterBoxes = reportCharacterBoxes
        return try perform(request, in: context).map(VNTextObservation.init)
    }
}
