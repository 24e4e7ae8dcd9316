/// Finds faces, as Vision's `DetectFaceRectanglesRequest`, with dlib's HOG frontal face detector.
/// Faces smaller than about 80 pixels are found only with `upsampling` > 0.
public struct DetectFaceRectanglesRequest: CompletionHandlingRequest {
    public typealias Result = [FaceObservation]
    public var reportName: String { "faces" }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Image pyramid up-samplings before detection: 0 is fastest and finds faces of ~80 px and
    /// up; 1 (the default) finds faces of ~40 px at about 4× the time on large images.
    public var upsampling: Int = 1
    /// Observations less confident than this are dropped. Default 0 (dlib's own threshold applies).
    public var minimumConfidence: Float = 0
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        return try DlibFaceDetector.detect(in: image, upsampling: upsampling).filter { $0.confidence >= minimumConfidence }
    }
}
