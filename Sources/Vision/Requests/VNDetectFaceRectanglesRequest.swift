import OpenVision

/// Vision's face detector (OpenVision's `DetectFaceRectanglesRequest`, dlib HOG).
open class VNDetectFaceRectanglesRequest: VNImageBasedRequest {

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectFaceRectanglesRequest()
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
