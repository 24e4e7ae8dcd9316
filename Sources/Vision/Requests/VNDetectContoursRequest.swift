import OpenVision

/// Vision's contours (OpenVision's `DetectContoursRequest`).
open class VNDetectContoursRequest: VNImageBasedRequest {
    public var contrastAdjustment: Float = 2
    public var contrastPivot: Float? = 0.5
    public var detectsDarkOnLight = true
    public var maximumImageDimension = 512

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectContoursRequest()
        request.contrastAdjustment = contrastAdjustment
        request.contrastPivot = contrastPivot
        request.detectsDarkOnLight = detectsDarkOnLight
        request.maximumImageDimension = maximumImageDimension
        return [VNContoursObservation(try perform(request, in: context))]
    }
}
