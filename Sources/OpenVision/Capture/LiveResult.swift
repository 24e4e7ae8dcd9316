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
    /// Time spent after the requests: tracking, counting, the label classifier and the pinned labels.
    public var postAnalysis: Duration = .zero
    /// The multi-object tracker's update for this frame (`LiveAnalyzer.Configuration.tracking`); nil when
    /// tracking is off. Its tracks' `detectionIndex` points into `detectedObjects`; see `trackID(ofObjectAt:)`.
    public var tracking: ObjectTracker.Update?
    /// Tracks that crossed the counting line on this frame (`LiveAnalyzer.Configuration.lineCounter`).
    public var lineCrossings: [LineCounter.Crossing] = []
    /// The counting line's totals after this frame; nil without a line counter.
    public var lineCounts: LineCounter.Counts?
    /// The counting line's ends (normalised, lower-left origin); nil without a line counter.
    public var lineSegment: (start: CGPoint, end: CGPoint)?
    /// The pinned labels tracked into this frame (`LiveAnalyzer.pinLabel(at:label:)`), in the order they were
    /// pinned, each with its point (normalised, lower-left origin) and state.
    public var anchors: [Anchor] = []
    /// The latest top classification (`LiveAnalyzer.Configuration.labelClassifier`), nil before the first.
    public var topLabel: ClassificationObservation?

    /// The objects the tracker was fed: the results of the first request producing `[RecognizedObjectObservation]`
    /// (empty when it failed on this frame); nil when no request detects objects.
    public var detectedObjects: [RecognizedObjectObservation]? { Self.detectedObjects(in: outcomes)?.objects }

    /// The track ID of `detectedObjects[index]`, or nil: tracking is off, or the object is not (yet) a
    /// confirmed track (a track is confirmed when it is matched on two consecutive frames), or it scored
    /// below the tracker's `lowThreshold`.
    public func trackID(ofObjectAt index: Int) -> Int? {
        tracking?.tracks.first { $0.detectionIndex == index }?.id
    }

    /// The index (in `outcomes`) and objects of the first request whose results are `[RecognizedObjectObservation]`.
    static func detectedObjects(in outcomes: [VisionRequestOutcome]) -> (
        index: Int, objects: [RecognizedObjectObservation]
    )? {
        for (index, outcome) in outcomes.enumerated() where producesObjects(outcome.request) {
            if case .success(let value) = outcome.result, let objects = value as? [RecognizedObjectObservation] {
                return (index, objects)
            }
            return (index, [])
        }
        return nil
    }

    private static func producesObjects<R: VisionRequest>(_ request: R) -> Bool {
        R.Result.self == [RecognizedObjectObservation].self
    }

    /// The results of the first request of type `R`.
    public func results<R: VisionRequest>(for type: R.Type) -> R.Result? {
        outcomes.lazy.compactMap { $0.results(as: type) }.first
    }
}
