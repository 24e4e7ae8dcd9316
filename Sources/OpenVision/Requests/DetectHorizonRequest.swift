/// Finds the horizon's tilt, as Vision's `DetectHorizonRequest`. Vision's algorithm is not documented
/// (likely learned); ours takes the dominant nearly horizontal straight edge (Canny + Hough lines,
/// refined by a line fit; see `ov_horizon.cpp`), so any long straight edge within 45° of level counts.
/// Nil when there is none (a flat image, clutter without a dominant line).
public struct DetectHorizonRequest: CompletionHandlingRequest {
    public typealias Result = HorizonObservation?

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    public var completionHandler: RequestCompletionHandler<Result>?

    /// The horizon is found on an image of at most 640 px: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 640 / max(width, height, 1))
    }

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVHorizon.detect(in: try imageForRegionOfInterest(in: context))
    }
}
