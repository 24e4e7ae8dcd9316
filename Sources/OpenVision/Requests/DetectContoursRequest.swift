/// Finds the outlines of shapes and their nesting (holes, shapes inside holes), as Vision's
/// `DetectContoursRequest`. Every default is Vision's. Vision's algorithm is not documented; ours is
/// contrast adjustment, Otsu binarisation and OpenCV's `findContours` (see `ov_contours.cpp`).
/// A flat image gives an observation with no contours.
public struct DetectContoursRequest: CompletionHandlingRequest {
    /// One `ContoursObservation` for the analysed image.
    public typealias Result = ContoursObservation

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Runs on the caller's task up to 256 × 256 pixels (about a millisecond there; see the protocol).
    public var maximumInlinePixelCount: Int { classicInlinePixelCount }
    /// How much to stretch contrast about `contrastPivot` before binarising, 0...3. Default 2.
    public var contrastAdjustment: Float = 2
    /// The intensity (0...1) contrast is stretched about; nil picks it from the image (Otsu's threshold). Default 0.5.
    public var contrastPivot: Float? = 0.5
    /// True: dark shapes on a light background are the shapes; false: light on dark. Default true.
    public var detectsDarkOnLight = true
    /// The image is shrunk so that its longer side is at most this many pixels before detection, which
    /// bounds the work (and the detail). Must be positive. Default 512.
    public var maximumImageDimension = 512
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// `maximumImageDimension` / the longer side: a JPEG may be decoded at 1/2...1/8 scale when that keeps it.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        guard maximumImageDimension > 0 else { return 1 }
        return min(1, Double(maximumImageDimension) / max(width, height, 1))
    }

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Throws `invalidArgument` for options outside their documented ranges (NaN and infinities included).
    public func validateOptions() throws(VisionError) {
        guard contrastAdjustment.isFinite, (0...3).contains(contrastAdjustment) else {
            throw VisionError(
                .invalidArgument, "contrastAdjustment must be a number in 0...3, not \(contrastAdjustment)")
        }
        if let contrastPivot, !(contrastPivot.isFinite && (0...1).contains(contrastPivot)) {
            throw VisionError(.invalidArgument, "contrastPivot must be a number in 0...1 or nil, not \(contrastPivot)")
        }
        guard maximumImageDimension > 0 else {
            throw VisionError(.invalidArgument, "maximumImageDimension must be positive, not \(maximumImageDimension)")
        }
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try validateOptions()
        let image = try imageForRegionOfInterest(in: context)
        return try OpenCVContours.detect(
            in: image, contrastAdjustment: contrastAdjustment, contrastPivot: contrastPivot,
            detectsDarkOnLight: detectsDarkOnLight, maximumImageDimension: maximumImageDimension)
    }
}
