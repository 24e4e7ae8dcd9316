import Synchronization

/// The dense optical flow from each frame of a sequence to the next, as Vision's
/// `TrackOpticalFlowRequest`: the same algorithm and result as `GenerateOpticalFlowRequest`, with the
/// previous frame as the source and the current frame as the target (the field has the frame's size;
/// at pixel (x, y) of the previous frame, where it moved to in the current one).
///
/// A stateful request: it keeps the previous frame (gray plane, cropped to `regionOfInterest`) itself;
/// perform the same instance on every frame, in order. Nil on the first frame. A frame of another size
/// than the previous one throws `invalidArgument` and starts the sequence again at the new size.
public final class TrackOpticalFlowRequest: StatefulRequest, CompletionHandlingRequest {
    /// The accuracy levels, as `GenerateOpticalFlowRequest`'s.
    public typealias ComputationAccuracy = GenerateOpticalFlowRequest.ComputationAccuracy
    /// The flow from the previous frame to this one; nil on the first frame of a sequence.
    public typealias Result = PixelBufferObservation?
    /// Reported under `opticalFlow`, drawn as arrows; nothing on the first frame.
    public func reportable(_ results: Result) -> any ReportableResult { results.map(OpticalFlowReport.init) }

    private struct Settings: Sendable {
        var base = StatefulOptions<Result>()
        var accuracy = ComputationAccuracy.medium
    }

    private let settings = Mutex(Settings())
    private let previous = PreviousFrame()

    /// A request computing flow at `computationAccuracy` between successive frames.
    public init(
        computationAccuracy: ComputationAccuracy = .medium, completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        settings.withLock {
            $0.accuracy = computationAccuracy
            $0.base.completionHandler = completionHandler
        }
    }

    /// Default `.medium`, as Vision.
    public var computationAccuracy: ComputationAccuracy {
        get { settings.withLock { $0.accuracy } }
        set { settings.withLock { $0.accuracy = newValue } }
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect {
        get { settings.withLock { $0.base.regionOfInterest } }
        set { settings.withLock { $0.base.regionOfInterest = newValue } }
    }

    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>? {
        get { settings.withLock { $0.base.completionHandler } }
        set { settings.withLock { $0.base.completionHandler = newValue } }
    }

    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }

    /// Frames performed since creation or the last `reset()`.
    public var frameCount: Int { previous.frameCount }

    /// Forgets the previous frame: the next frame starts a new sequence (and returns nil).
    public func reset() { previous.reset() }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let current = try imageForRegionOfInterest(in: context)
        guard let from = try previous.exchange(current, what: "optical flow") else { return nil }
        return try OpenCVOpticalFlow.flow(from: from, to: current, accuracy: computationAccuracy)
    }
}
