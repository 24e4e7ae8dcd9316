internal import CNative
import Foundation
import Synchronization

/// Runs requests on frames from a camera, file, stream or image folder, as the seeds' live
/// capture apps do, with one frame in flight: while requests run, newer frames replace the one
/// waiting (a mailbox of one) and every replaced frame is counted as dropped. (Files and folders
/// read at `.fastest` pace have no clock to keep up with: capture waits for analysis instead.)
/// The preview callback sees every frame at full resolution; analysis runs on a downscaled copy.
///
/// Iterate it (`for try await result in analyzer`) to start it; iterating once is supported.
/// Ending the iteration (break, task cancellation) stops capture and frees the source. The
/// sequence ends at the end of a file, and throws the source's error when a stream cannot be
/// recovered within `CaptureOptions.reconnectFor`.
public final class LiveAnalyzer: AsyncSequence, Sendable {
    /// One result per analysed frame.
    public typealias Element = LiveResult

    /// Pipeline options. Every default is documented on its property.
    public struct Configuration: Sendable {
        /// Longest side of the copy the requests analyse; nil (default) picks twice the largest
        /// model input among the requests, or 1280 px without models. Frames are never enlarged.
        public var analysisMaxDimension: Int?
        /// True (default): newer frames replace a waiting one while requests run (live use: cameras,
        /// streams, files at `.native` pace). False: capture waits for analysis, so every frame is
        /// analysed (offline video processing), as it always does for files read at `.fastest` pace.
        public var dropsFrames = true
        /// Results waiting for a slow consumer, newest kept; older ones are counted in
        /// `LiveStats.resultsDropped`. Default 8.
        public var resultBufferSize = 8
        /// Called with every captured frame (upright, full resolution) on the capture thread; keep it short.
        public var preview: (@Sendable (Frame) -> Void)?
        /// Multi-object tracking (ByteTrack, `ObjectTracker`) of the objects the first object-detecting request
        /// (`DetectObjectsRequest`, or any request whose results are `[RecognizedObjectObservation]`) finds on
        /// each analysed frame: `LiveResult.tracking` then carries the track IDs. Nil (default): no tracking.
        /// The tracker counts analysed frames, so with dropped frames its `frameRate` is the analysed rate.
        public var tracking: ObjectTracker.Configuration?
        /// With tracking: registers each analysed frame onto the previous one (`TrackHomographicImageRegistrationRequest`)
        /// and gives the tracker the camera's motion (BoT-SORT's camera-motion compensation), for moving cameras.
        /// A frame that does not register (flat, first) is tracked without it. Default false.
        public var compensatesCameraMotion = false
        /// Counts tracks crossing a line (normalised, lower-left origin): `LiveResult.lineCrossings` and
        /// `lineCounts`. Needs tracking; when `tracking` is nil it runs with ByteTrack's defaults. Default nil.
        public var lineCounter: LineCounter?
        /// The classifier whose top class labels new pins (`pinLabel(at:label:)` without a label; seed 003's
        /// corner label): run on the analysed frame after the requests, every `labelClassifierInterval`-th
        /// analysed frame. Nil (default): the first `ClassifyImageRequest` among the requests gives the top
        /// class, if any.
        public var labelClassifier: ClassifyImageRequest?
        /// Run `labelClassifier` on every n-th analysed frame (the first included); the top class holds in
        /// between. Default 1 (every frame).
        public var labelClassifierInterval = 1
        /// How pinned labels are tracked (`AnchorTracker`). Default: its defaults.
        public var anchorTracking = AnchorTracker.Configuration()

        /// The default configuration: every property at its documented default.
        public init() {}
    }

    /// Where frames come from.
    public let source: FrameSource
    /// How the source is opened and paced.
    public let options: CaptureOptions
    /// The requests run on every analysed frame.
    public let requests: [any VisionRequest]
    /// The pipeline's options.
    public let configuration: Configuration
    private let counters = LiveCounterStore()
    private let anchorStore: LiveAnchorStore
    private let started = Atomic<Bool>(false)
    /// The pipeline's two threads (see `waitUntilStopped(timeout:)`).
    private let pipelineThreads = DispatchGroup()

    /// An analyzer of `source` running `requests` on its frames; nothing starts until it is iterated.
    public init(
        source: FrameSource, options: CaptureOptions = CaptureOptions(), requests: [any VisionRequest],
        configuration: Configuration = Configuration()
    ) {
        self.source = source
        self.options = options
        self.requests = requests
        self.configuration = configuration
        anchorStore = LiveAnchorStore(configuration: configuration.anchorTracking)
    }

    // MARK: Pinned labels (seed 003)

    /// The most labels pinned at once (64): each is tracked on every analysed frame and written in every
    /// `LiveResult`; `pinLabel` refuses more until one is removed.
    public static let maximumPinnedLabels = LiveAnchorStore.maximumAnchors

    /// Pins `label` (nil: the current top class, `topLabel`) at `point` (normalised, lower-left origin) of the
    /// latest analysed frame; from the next analysed frame on, the anchor is tracked in the image (`AnchorTracker`)
    /// and every `LiveResult.anchors` carries it with its state (normal / limited / lost). Callable from any
    /// thread while the analyzer runs; returns at once (the analysis thread places the label when it analyses
    /// the next frame) with the anchor at `point`, state normal.
    ///
    /// Throws `invalidArgument` for a point that is NaN, infinite or outside 0...1, an empty label, before the
    /// first frame was analysed, without a label when there is no top class yet, or with
    /// `maximumPinnedLabels` labels pinned already.
    public func pinLabel(at point: CGPoint, label: String? = nil) throws(VisionError) -> Anchor {
        try anchorStore.pin(at: point, label: label)
    }

    /// Removes a pinned label; false when there is none with that ID.
    @discardableResult
    public func removeAnchor(id: Int) -> Bool {
        anchorStore.remove(id: id)
    }

    /// The pinned labels as of the latest analysed frame (and those pinned since, at their point), in the order
    /// they were pinned.
    public var anchors: [Anchor] { anchorStore.anchors }

    /// The latest top classification (`Configuration.labelClassifier`), which labels pins given no label.
    public var topLabel: ClassificationObservation? { anchorStore.topLabel }

    /// Whether a frame has been analysed yet (pins are placed on the latest analysed frame).
    public var hasAnalysedFrame: Bool { anchorStore.hasFrame }

    /// True when capture waits for the analysis of each frame instead of replacing a waiting one:
    /// in every-frame mode, and for files and folders read as fast as they decode, which have no
    /// clock to keep up with (reading ahead there would only spend a core on frames then dropped).
    var captureWaitsForAnalysis: Bool {
        !configuration.dropsFrames || (!source.isLive && options.pace == .fastest)
    }

    /// Loads the native video and image-codec modules now instead of on the first frame (together
    /// about 0.2 s and 60 MB, which still-image work and `openvision --version` never pay). Servers
    /// call it before accepting clients, so that their memory is steady from the first request.
    /// Throws `unsupported` when OpenCV's videoio or imgcodecs module is missing.
    public static func prewarm() throws(VisionError) {
        for module in ["videoio", "imgcodecs"] {
            try NativeError.check(ov_preload_module(module), "loading OpenCV's \(module) module")
        }
    }

    /// A snapshot of the counters and timings so far.
    public func stats() -> LiveStats {
        counters.snapshot()
    }

    /// Iterates the results. When frames are not dropped, the pipeline also waits for a slow
    /// consumer (at most `resultBufferSize` results wait), so no result is lost.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<LiveResult, any Error>.Iterator
        let credits: DispatchSemaphore?

        /// The next result; nil when the source has ended; throws the source's error when it cannot be recovered.
        public mutating func next() async throws -> LiveResult? {
            let result = try await base.next()
            if result != nil { credits?.signal() }
            return result
        }
    }

    /// Starts the pipeline and returns its only iterator (iterating once is supported).
    public func makeAsyncIterator() -> Iterator {
        let size = Swift.max(1, configuration.resultBufferSize)
        // Live use keeps the newest results; when capture waits for analysis no result is dropped
        // either (capacity is bounded by credits).
        let (stream, continuation) = AsyncThrowingStream<LiveResult, any Error>.makeStream(
            bufferingPolicy: captureWaitsForAnalysis ? .unbounded : .bufferingNewest(size))
        let credits = captureWaitsForAnalysis ? DispatchSemaphore(value: size) : nil
        guard !started.exchange(true, ordering: .relaxed) else {
            continuation.finish(throwing: VisionError(.invalidArgument, "a LiveAnalyzer can be iterated once"))
            return Iterator(base: stream.makeAsyncIterator(), credits: nil)
        }
        if let tracking = settings.tracking {
            do { try tracking.validate() } catch {
                continuation.finish(throwing: error)
                return Iterator(base: stream.makeAsyncIterator(), credits: nil)
            }
        }
        let pipeline = LivePipeline(
            settings: settings, counters: counters, continuation: continuation, credits: credits,
            threads: pipelineThreads)
        continuation.onTermination = { @Sendable _ in pipeline.stop() }
        pipeline.start()
        return Iterator(base: stream.makeAsyncIterator(), credits: credits)
    }

    /// Waits until the capture and analysis threads have returned, once iteration has ended (the
    /// source ended or failed, or the consumer stopped iterating: the frame in analysis is finished
    /// first). True at once if iteration never started; false if `timeout` passed first. Call it
    /// before exiting a process, so that no native call is still running while the process's
    /// static destructors run.
    public func waitUntilStopped(timeout: Duration = .seconds(30)) async -> Bool {
        let threads = pipelineThreads
        let seconds = timeout.seconds
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: threads.wait(timeout: .now() + Swift.max(0, seconds)) == .success)
            }
        }
    }

    /// Runs to the end of the source, calling `handler` with each result (the callback style).
    public func run(_ handler: @Sendable (LiveResult) -> Void) async throws {
        for try await result in self { handler(result) }
    }

    /// The analysis size: configured, or derived from the requests' model inputs.
    var analysisMaxDimension: Int {
        if let configured = configuration.analysisMaxDimension { return Swift.max(16, configured) }
        let inputs = requests.compactMap { ($0 as? any ModelRequest)?.modelInputMaxDimension }
        return inputs.max().map { $0 * 2 } ?? 1280
    }

    /// What the pipeline reads, fixed when iteration starts.
    var settings: LivePipeline.Settings {
        LivePipeline.Settings(
            source: source, options: options, requests: requests, preview: configuration.preview,
            captureWaitsForAnalysis: captureWaitsForAnalysis, analysisMaxDimension: analysisMaxDimension,
            tracking: configuration.tracking
                ?? (configuration.lineCounter != nil ? ObjectTracker.Configuration() : nil),
            compensatesCameraMotion: configuration.compensatesCameraMotion,
            lineCounter: configuration.lineCounter, labelClassifier: configuration.labelClassifier,
            labelClassifierInterval: Swift.max(1, configuration.labelClassifierInterval), anchors: anchorStore)
    }
}
