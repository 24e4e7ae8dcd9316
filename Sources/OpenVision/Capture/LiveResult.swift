import Foundation

/// The requests' results for one analysed frame.
public struct LiveResult: Sendable {
    /// The frame's index in capture order.
    public var frameIndex: Int
    /// When the frame was captured.
    public var captureTime: ContinuousClock.Instant
    /// The source's timestamp of the frame in seconds, if any.
    public var sourceTimestamp: Double?
    /// The full-resolution frame (observations are normalised, so they apply to it as is).
    public var image: VisionImage
    /// Its size.
    public var imageSize: CGSize { image.size }
    /// Each request's results or error, in request order.
    public var outcomes: [VisionRequestOutcome]
    /// Capture to result.
    public var latency: Duration
    /// Time spent downscaling the frame for analysis.
    public var downscale: Duration
    /// Time spent running the requests.
    public var analysis: Duration

    /// The results of the first request of type `R`.
    public func results<R: VisionRequest>(for type: R.Type) -> R.Result? {
        outcomes.lazy.compactMap { $0.results(as: type) }.first
    }
}
