/// Finds lines of text and, optionally, their characters without reading them, as Vision's
/// `DetectTextRectanglesRequest`. Vision's is a network; ours groups connected components of a local
/// threshold (both polarities) into horizontal lines (see `ov_textrects.cpp`): printed, roughly level
/// text with separate glyphs. Lines top to bottom.
public struct DetectTextRectanglesRequest: CompletionHandlingRequest {
    /// One `TextObservation` per finding; empty when there is none.
    public typealias Result = [TextObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// True: each observation carries its characters' boxes. Default false.
    public var reportCharacterBoxes = false
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Text is looked for on at most 2048 px: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        min(1, 2048 / max(width, height, 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVTextRectangles.detect(
            in: try imageForRegionOfInterest(in: context), characterBoxes: reportCharacterBoxes)
    }
}
