/// What Vision's tracking requests share (`VNTrackingRequest`): the observation the next frame is tracked from,
/// the tracking level and `isLastFrame`. `TrackObjectRequest` and `TrackRectangleRequest` are the two kinds;
/// each says how its input starts a tracker and how a tracker's step becomes its observation.
public class TrackingRequest<Observation: VisionObservation & BoundingBoxProviding>: StatefulRequest,
    CompletionHandlingRequest,
    @unchecked Sendable
{
    // @unchecked: not final only for its two subclasses in this module; every stored property is an immutable
    // `let` of a Sendable type (the tracking state is behind SingleObjectTracking's locks).
    /// The tracked object on this frame: one observation (confidence 0 when the tracker lost it).
    public typealias Result = [Observation]
    typealias Start =
        @Sendable (Observation, VisionImage) throws(VisionError) -> (box: PixelBox, quad: [(x: Double, y: Double)]?)
    typealias MakeResult = @Sendable (Observation, OpenCVObjectTracker.Step?, VisionImage) -> Observation

    private let tracking: SingleObjectTracking<Observation>

    /// Tracked objects have no entry in the report; `TrackRectangleRequest` reports its rectangles.
    public func reportable(_ results: Result) -> any ReportableResult { UnreportedResult() }

    private let start: Start
    private let result: MakeResult

    init(
        input: Observation, what: String, completionHandler: RequestCompletionHandler<Result>?,
        start: @escaping Start, result: @escaping MakeResult
    ) {
        tracking = SingleObjectTracking(input: input, what: what)
        tracking.completionHandler = completionHandler
        self.start = start
        self.result = result
    }

    /// The observation the next frame is tracked from: the latest result after each perform; setting it starts the
    /// tracker again from it on the next frame.
    public var inputObservation: Observation {
        get { tracking.input }
        set { tracking.input = newValue }
    }

    /// `.accurate` (CSRT, the default) or `.fast` (KCF); a change applies when the tracker next starts.
    public var trackingLevel: TrackingLevel {
        get { tracking.level }
        set { tracking.level = newValue }
    }

    /// True releases the tracker (after the frame being performed, or at once between frames).
    public var isLastFrame: Bool {
        get { tracking.isLastFrame }
        set { tracking.isLastFrame = newValue }
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect {
        get { tracking.regionOfInterest }
        set { tracking.regionOfInterest = newValue }
    }

    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>? {
        get { tracking.completionHandler }
        set { tracking.completionHandler = newValue }
    }

    /// Frames performed since creation or the last `reset()`.
    public var frameCount: Int { tracking.frameCount }

    /// Forgets the tracker's state: the next frame starts again from the input observation.
    public func reset() { tracking.reset() }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try tracking.track(try context.colorImage(), start: start, result: result)
    }
}
