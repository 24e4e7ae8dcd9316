import Synchronization

/// Detects objects moving along parabolas (thrown balls) in a sequence of frames, as Vision's
/// `DetectTrajectoriesRequest`. Vision's algorithm is not documented; ours is classic (see
/// `ov_trajectories.cpp` and `TrajectoryTracker`): moving blobs against a median background of the
/// recent frames (a static camera is assumed), linked frame to frame, and a least-squares parabola
/// fitted over the last `trajectoryLength` points.
///
/// A stateful request: it keeps the background frames and the tracks itself; perform the same instance
/// on every frame, in order. The first frames only build the background (no result before the fifth
/// frame); then each frame gives the trajectories it continues (an empty array when there are none).
/// Frame times come from the handler (`SequenceRequestHandler.perform(_:on:frameTime:)`, the live
/// pipeline's source timestamps); frames without one are `targetFrameTime` apart. A frame of another
/// size than the previous ones throws `invalidArgument`; the request then restarts at the new size.
public final class DetectTrajectoriesRequest: StatefulRequest, CompletionHandlingRequest {
    /// One `TrajectoryObservation` per finding; empty when there is none.
    public typealias Result = [TrajectoryObservation]

    private struct Settings: Sendable {
        var base = StatefulOptions<Result>()
        var frameAnalysisSpacing: Duration
        var trajectoryLength: Int
        var objectMinimumNormalizedRadius: Float = 0
        var objectMaximumNormalizedRadius: Float = 1
        var targetFrameTime: Duration = .seconds(1) / 30
    }

    private struct State: @unchecked Sendable {
        // @unchecked: the tracker's native detector is used only under this lock.
        var tracker = TrajectoryTracker()
        var framesSeen = 0
        var lastAnalysed: Duration?
    }

    private let settings: Mutex<Settings>
    private let state = Mutex(State())

    /// `frameAnalysisSpacing`: the least time between analysed frames (`.zero`: every frame);
    /// `trajectoryLength`: the points a trajectory needs before it is reported, and the points it reports
    /// (at least 5).
    public init(
        frameAnalysisSpacing: Duration = .zero, trajectoryLength: Int,
        completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        var s = Settings(frameAnalysisSpacing: frameAnalysisSpacing, trajectoryLength: trajectoryLength)
        s.base.completionHandler = completionHandler
        settings = Mutex(s)
    }

    /// The least time between analysed frames; frames closer to the last analysed one are skipped (empty
    /// result, not added to the background). `.zero` (default): every frame. Must not be negative.
    public var frameAnalysisSpacing: Duration {
        get { settings.withLock { $0.frameAnalysisSpacing } }
        set { settings.withLock { $0.frameAnalysisSpacing = newValue } }
    }

    /// The number of points a trajectory needs before it is reported, and the number it reports; at least 5.
    public var trajectoryLength: Int {
        get { settings.withLock { $0.trajectoryLength } }
        set { settings.withLock { $0.trajectoryLength = newValue } }
    }

    /// The smallest object radius tracked, as a fraction of the image width (default 0).
    public var objectMinimumNormalizedRadius: Float {
        get { settings.withLock { $0.objectMinimumNormalizedRadius } }
        set { settings.withLock { $0.objectMinimumNormalizedRadius = newValue } }
    }

    /// The largest object radius tracked, as a fraction of the image width (default 1).
    public var objectMaximumNormalizedRadius: Float {
        get { settings.withLock { $0.objectMaximumNormalizedRadius } }
        set { settings.withLock { $0.objectMaximumNormalizedRadius = newValue } }
    }

    /// The time between frames that carry no timestamp (default 1/30 s). Vision names this option
    /// without documenting its use; here it only times such frames. Must be positive.
    public var targetFrameTime: Duration {
        get { settings.withLock { $0.targetFrameTime } }
        set { settings.withLock { $0.targetFrameTime = newValue } }
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

    /// Frames performed (analysed or skipped by `frameAnalysisSpacing`) since creation or `reset()`.
    public var frameCount: Int { state.withLock { $0.framesSeen } }

    /// Forgets every trajectory and frame: the next frame starts a new sequence.
    public func reset() { state.withLock { $0 = State() } }

    /// Throws `invalidArgument` for a trajectory length under 5, radii outside 0...1 (or NaN) or a
    /// minimum above the maximum, a negative spacing or a non-positive frame time.
    private func validatedOptions() throws(VisionError) -> Settings {
        let s = settings.withLock { $0 }
        guard s.trajectoryLength >= 5 else {
            throw VisionError(.invalidArgument, "trajectoryLength \(s.trajectoryLength) must be at least 5")
        }
        let lo = s.objectMinimumNormalizedRadius
        let hi = s.objectMaximumNormalizedRadius
        guard lo.isFinite, hi.isFinite, lo >= 0, hi <= 1, lo <= hi else {
            throw VisionError(
                .invalidArgument, "object radii \(lo)...\(hi) must be finite, within 0...1, minimum ≤ maximum")
        }
        guard s.frameAnalysisSpacing >= .zero else {
            throw VisionError(.invalidArgument, "frameAnalysisSpacing \(s.frameAnalysisSpacing) must not be negative")
        }
        guard s.targetFrameTime > .zero else {
            throw VisionError(.invalidArgument, "targetFrameTime \(s.targetFrameTime) must be positive")
        }
        return s
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let s = try validatedOptions()
        let image = try imageForRegionOfInterest(in: context)
        let width = Double(image.width)
        let options = TrajectoryTracker.Options(
            trajectoryLength: s.trajectoryLength,
            radii: Double(s.objectMinimumNormalizedRadius) * width...Double(s.objectMaximumNormalizedRadius) * width)
        return try state.withLock { state throws(VisionError) -> Result in
            let time = context.frameTime ?? s.targetFrameTime * state.framesSeen
            state.framesSeen += 1
            if let last = state.lastAnalysed, s.frameAnalysisSpacing > .zero, time - last < s.frameAnalysisSpacing {
                return []
            }
            state.lastAnalysed = time
            return try state.tracker.add(image, time: time, options: options)
        }
    }
}
