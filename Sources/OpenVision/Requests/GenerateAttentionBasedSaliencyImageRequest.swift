/// A heat map of where attention goes, as Vision's `GenerateAttentionBasedSaliencyImageRequest`: one
/// `SaliencyImageObservation` with a 68 × 68 map and the salient regions. Vision's is a network; ours is
/// OpenCV's spectral residual saliency (Hou & Zhang 2007) on the gray image shrunk to 68 × 68 (see
/// `ov_saliency.cpp`). A flat image gives an all-zero map and no regions.
public struct GenerateAttentionBasedSaliencyImageRequest: CompletionHandlingRequest {
    /// One `SaliencyImageObservation` for the analysed image.
    public typealias Result = SaliencyImageObservation

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// The map is 68 × 68: a JPEG may be decoded at 1/2...1/8 scale while both sides stay at least 68 px.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 68 / max(min(width, height), 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVSaliency.generate(.attention, in: try imageForRegionOfInterest(in: context))
    }
}
