import OpenVision

/// Vision's people (OpenVision's `DetectHumanRectanglesRequest`, the built-in detector).
open class VNDetectHumanRectanglesRequest: VNImageBasedRequest {
    /// Default true, as Vision.
    public var upperBodyOnly = true

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectHumanRectanglesRequest()
        request.upperBodyOnly = upperBodyOnly
        return try perform(request, in: context).map(VNHumanObservation.init)
    }
}
