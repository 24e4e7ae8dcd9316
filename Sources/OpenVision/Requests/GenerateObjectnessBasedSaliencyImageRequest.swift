/// A heat map of where objects are, as Vision's `GenerateObjectnessBasedSaliencyImageRequest`: one
/// `SaliencyImageObservation` with a 68 × 68 map and the salient regions. Vision's is a network; OpenCV's
/// objectness proposal (BING) needs trained files Debian does not ship, so ours is OpenCV's fine-grained
/// centre-surround saliency (Montabone & Soto 2010) on the gray image shrunk to at most 272 px, which
/// favours compact regions that stand out from their surroundings (see `ov_saliency.cpp`). A flat image
/// gives an all-zero map and no regions.
public struct GenerateObjectnessBasedSaliencyImageRequest: CompletionHandlingRequest {
    /// One `SaliencyImageObservation` for the analysed image.
    public typealias Result = SaliencyImageObservation
    /// Under the report's `objectness` key, drawn as objects.
    public func reportable(_ results: Result) -> any ReportableResult { ObjectnessReport(results) }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// The map is computed on at most 272 px: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 272 / max(width, height, 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVSaliency.generate(.objectness, in: try imageForRegionOfInterest(in: context))
    }
}
