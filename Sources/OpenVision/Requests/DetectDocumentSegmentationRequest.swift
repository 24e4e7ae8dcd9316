/// Finds a document (page, card, receipt) and its four corners, as Vision's
/// `DetectDocumentSegmentationRequest`. Vision's is a network; ours is classic: OpenCV edges and
/// contours give convex quadrilaterals (the rectangles backend, corners refined to sub-pixel) and the
/// largest well-supported one is the page (see `OpenCVDocumentSegmentation`). Nil when there is none.
public struct DetectDocumentSegmentationRequest: CompletionHandlingRequest {
    /// The page found; nil when there is none.
    public typealias Result = DetectedDocumentObservation?

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Corners are refined on at most 1024 px: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 1024 / max(width, height, 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVDocumentSegmentation.detect(in: try imageForRegionOfInterest(in: context))
    }
}
