/// Where a model request spent its time.
public struct InferenceTimings: Sendable, Hashable {
    /// Getting the image: decoding it when this request is the first to read it (or zero when the
    /// handler decoded it before), and cropping the region of interest.
    public var decode: Duration = .zero
    /// Image → input tensor (resize, letterbox, normalise).
    public var preprocess: Duration = .zero
    /// The backend's run.
    public var inference: Duration = .zero
    /// Output tensors → observations (decoding, NMS, mapping back).
    public var postprocess: Duration = .zero

    /// A value with every property at its default (zero, empty or nil).
    public init() {}
}

/// Measures the stages of one model request.
struct StageClock {
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    var timings = InferenceTimings()

    init() { last = clock.now }

    mutating func lap() -> Duration {
        let now = clock.now
        defer { last = now }
        return now - last
    }
}
