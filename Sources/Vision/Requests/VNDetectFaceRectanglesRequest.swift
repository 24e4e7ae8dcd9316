import OpenVision

/// Vision's face detector (OpenVision's `DetectFaceRectanglesRequest`): `revision` 1 is dlib's HOG detector
/// (the default here), 2 and 3 MediaPipe's BlazeFace short and full range.
open class VNDetectFaceRectanglesRequest: VNImageBasedRequest {

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        guard let chosen = DetectFaceRectanglesRequest.Revision(rawValue: revision) else {
            throw VisionError(.unsupported, "VNDetectFaceRectanglesRequest revision \(revision) is not supported (1, 2 or 3)")
        }
        let request = DetectFaceRectanglesRequest(chosen)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
