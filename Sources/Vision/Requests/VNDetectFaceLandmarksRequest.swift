import OpenVision

/// Vision's face landmarks (OpenVision's `DetectFaceLandmarksRequest`, dlib's 68 points as Vision's regions).
open class VNDetectFaceLandmarksRequest: VNImageBasedRequest {
    /// Faces to find landmarks in (e.g. from a `VNDetectFaceRectanglesRequest`); nil detects them first.
    public var inputFaceObservations: [VNFaceObservation]?

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectFaceLandmarksRequest()
        request.inputFaceObservations = inputFaceObservations?.map(\.native)
        return try perform(request, in: context).map(VNFaceObservation.init)
    }
}
