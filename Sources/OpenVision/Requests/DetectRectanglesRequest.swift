/// Finds quadrilaterals (documents, cards, screens, signs), as Vision's `DetectRectanglesRequest`,
/// using OpenCV contour analysis. Every default is Vision's.
public struct DetectRectanglesRequest: CompletionHandlingRequest {
    /// One `RectangleObservation` per finding; empty when there is none.
    public typealias Result = [RectangleObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// Smallest accepted aspect ratio (shorter side / longer side), 0...1. Default 0.5.
    public var minimumAspectRatio: Float = 0.5
    /// Largest accepted aspect ratio (shorter side / longer side), 0...1. Default 1.0.
    public var maximumAspectRatio: Float = 1.0
    /// How far, in degrees, each corner may deviate from 90°, 0...45. Default 30.
    public var quadratureTolerance: Float = 30
    /// Smallest accepted size: the shorter side as a fraction of the image's shorter side, 0...1. Default 0.2.
    public var minimumSize: Float = 0.2
    /// Observations less confident than this are dropped, 0...1. Default 0.
    public var minimumConfidence: Float = 0
    /// At most this many observations, most confident first; 0 means no limit. Default 1.
    public var maximumObservations: Int = 1
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard maximumObservations >= 0 else {
            throw VisionError(
                .invalidArgument, "maximumObservations must be 0 (no limit) or more, not \(maximumObservations)")
        }
        let image = try imageForRegionOfInterest(in: context)
        return try OpenCVRectangles.detect(
            in: image, minimumAspectRatio: minimumAspectRatio, maximumAspectRatio: maximumAspectRatio,
            quadratureTolerance: quadratureTolerance, minimumSize: minimumSize,
            minimumConfidence: minimumConfidence, maximumObservations: maximumObservations)
    }
}
