/// A mask of where people are, as Vision's `GeneratePersonSegmentationRequest`: one 1-channel
/// `PixelBufferObservation` (feature name "personSegmentation") at the analysed image's size (after
/// `regionOfInterest`), 1 for person, 0 for background, soft at the edges. An image without people gives
/// an (almost) all-zero mask, not an error.
///
/// Ours is MediaPipe's selfie segmentation on the files of the `mediapipe==0.10.14` wheel (installed by
/// scripts/setup), as `mp.solutions.selfie_segmentation` runs them: the image stretched to the model's
/// input, values 0...1, the model's output resized (bilinear) to the image. The quality levels:
/// - `.fast`: `selfie_segmentation_landscape.tflite` (256 × 144 input, MediaPipe's `model_selection=1`);
/// - `.balanced`: `selfie_segmentation.tflite` (256 × 256, `model_selection=0`);
/// - `.accurate` (the default, as Vision's): `.balanced`'s mask refined at full resolution with a guided
///   filter (He et al., radius 1/80 of the image's longer side, ε 10⁻³) guided by the image's luma, so
///   that its edges follow the person's outline instead of the 256 × 256 grid.
/// Throws `missingModelData` when the model is not installed.
public struct GeneratePersonSegmentationRequest: CompletionHandlingRequest {
    /// How much work to spend, as Vision's `QualityLevel`.
    public enum QualityLevel: String, Sendable, Hashable, Codable, CaseIterable {
        /// Vision's quality levels: `fast`, `balanced`, `accurate` (see the type's description for what each runs).
        case fast, balanced, accurate
    }

    /// The mask's values, as Vision's `outputPixelFormat` (one component, 8-bit or 32-bit float).
    public enum OutputPixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
        /// Values rounded to multiples of 1/255 (Vision's default, `kCVPixelFormatType_OneComponent8`).
        case oneComponent8
        /// The model's values as computed (`kCVPixelFormatType_OneComponent32Float`).
        case oneComponent32Float
    }

    /// The feature name of person masks.
    public static let featureName = "personSegmentation"

    /// One `PixelBufferObservation` for the analysed image.
    public typealias Result = PixelBufferObservation
    /// Reported under `personMask`, blended in.
    public func reportable(_ results: Result) -> any ReportableResult { PersonMaskReport(results) }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Default `.accurate`, as Vision.
    public var qualityLevel: QualityLevel = .accurate
    /// Default `.oneComponent8`, as Vision.
    public var outputPixelFormat: OutputPixelFormat = .oneComponent8
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let segmenter = try SelfieSegmenter.installed(landscape: qualityLevel == .fast)
        var mask = try segmenter.mask(for: image)
        if qualityLevel == .accurate {
            let radius = max(1, Int((Double(max(image.width, image.height)) / 80).rounded()))
            mask = GuidedFilter.filter(
                mask, guide: try image.lumaValues(), width: image.width, height: image.height,
                radius: radius, epsilon: 1e-3)
        }
        let eightBit = outputPixelFormat == .oneComponent8
        mask.withUnsafeMutableBufferPointer { m in  // one pass, no per-pixel format test or uniqueness check
            if eightBit {
                for i in m.indices { m[i] = (min(1, max(0, m[i])) * 255).rounded() / 255 }
            } else {
                for i in m.indices { m[i] = min(1, max(0, m[i])) }
            }
        }
        return try PixelBufferObservation(
            width: image.width, height: image.height, values: mask, featureName: Self.featureName)
    }
}
