/// Finds the horizon's tilt, as Vision's `DetectHorizonRequest`. Vision's algorithm is not documented
/// (likely learned); ours takes the dominant nearly horizontal straight edge (Canny + Hough lines,
/// refined by a line fit; see `ov_horizon.cpp`), so any long straight edge within 45° of level counts.
/// Nil when there is none (a flat image, clutter without a dominant line).
public struct DetectHorizonRequest: CompletionHandlingRequest {
    /// The horizon found; nil when there is none.
    public typealias Result = HorizonObservation?

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// The horizon is found on an image of at most 640 px: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 640 / max(width, height, 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVHorizon.detect(in: try imageForRegionOfInterest(in: context))
    }
}
