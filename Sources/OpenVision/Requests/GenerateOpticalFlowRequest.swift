/// Computes the dense optical flow from the handler's image to `targetImage`, as Vision's
/// `GenerateOpticalFlowRequest`. Vision's algorithm is a network; ours is classic DIS optical flow
/// (`cv::DISOpticalFlow`, see `ov_optical_flow.cpp`) on the gray planes.
///
/// The result is a 2-channel Float32 `PixelBufferObservation` (feature name "opticalFlow") of the
/// handler's image size (after `regionOfInterest`): at pixel (x, y) (top row first) the x and y
/// displacement in pixels, y down, of where that pixel of the handler's image is in `targetImage`.
/// Both images must have the same size (`invalidArgument` otherwise). Identical or flat images give
/// zero flow.
public struct GenerateOpticalFlowRequest: CompletionHandlingRequest {
    /// How much work to spend, as Vision's `ComputationAccuracy`; each maps to a DIS configuration.
    public enum ComputationAccuracy: String, Sendable, Hashable, Codable, CaseIterable {
        /// DIS preset ULTRAFAST: quarter resolution, no variational refinement.
        case low
        /// DIS preset FAST: quarter resolution, 5 refinement iterations.
        case medium
        /// DIS preset MEDIUM: half resolution, denser patches.
        case high
        /// DIS at full resolution with more iterations (several times slower than `high`).
        case veryHigh

        var native: Int32 {
            switch self {
            case .low: 0
            case .medium: 1
            case .high: 2
            case .veryHigh: 3
            }
        }
    }

    /// The feature name of flow fields.
    public static let featureName = "opticalFlow"

    /// One `PixelBufferObservation` for the analysed image.
    public typealias Result = PixelBufferObservation
    /// Reported under `opticalFlow`, drawn as arrows.
    public func reportable(_ results: Result) -> any ReportableResult { OpticalFlowReport(results) }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray planes.
    public var requiresColor: Bool { false }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?
    /// The image the flow goes to (Vision's targeted image).
    public var targetImage: VisionImage
    /// Default `.medium`, as Vision.
    public var computationAccuracy: ComputationAccuracy = .medium

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(targetImage: VisionImage, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.targetImage = targetImage
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let from = try imageForRegionOfInterest(in: context)
        let to = try targetRegion(of: targetImage)
        try requireSameSize(from, to, what: "optical flow")
        return try OpenCVOpticalFlow.flow(from: from, to: to, accuracy: computationAccuracy)
    }
}
