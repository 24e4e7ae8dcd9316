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

        public init() {}
    }

    public let source: FrameSource
    public let options: CaptureOptions
    public let requests: [any VisionRequest]
    public let configuration: Configuration
    private let shared = Mutex(Shared())
    private let started = Atomic<Bool>(false)

    public init(source: FrameSource, options: CaptureOptions = CaptureOptions(), requests: [any VisionRequest],
                configuration: Configuration = Configuration()) {
        self.source = source
        self.options = options
        self.requests = requests
        self.configuration = configuration
    }

    /// True when capture waits for the analysis of each frame instead of replacing a waiting one:
    /// in every-frame mode, and for files and folders read as fast as they decode, which have no
    /// clock to keep up with (reading ahead there would only spend a core on frames then dropped).
    var captureWaitsForAnalysis: Bool {
        !configuration.dropsFrames || (!source.isLive && options.pace == .fastest)
    }

    /// A snapshot of the counters and timings so far.
    public func stats() -> LiveStats {
        shared.withLock { $0.snapshot() }
    }

    /// Iterates the results. When frames are not dropped, the pipeline also waits for a slow
    /// consumer (at most `resultBufferSize` results wait), so no result is lost.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<LiveResult, any Error>.Iterator
        let credits: DispatchSemaphore?

        public mutating func next() async throws -> LiveResult? {
            let result = try await base.next()
            if result != nil { credits?.signal() }
            return result
        }
    }

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
        let pipeline = Pipeline(analyzer: self, continuation: continuation, credits: credits)
        continuation.onTermination = { @Sendable _ in pipeline.stop() }
        pipeline.start()
        return Iterator(base: stream.makeAsyncIterator(), credits: credits)
    }

    /// Runs to the end of the source, calling `handler` with each result (the callback style).
    public func run(_ handler: @Sendable (LiveResult) -> Void) async throws {
        for try await result in self { handler(result) }
    }

    /// The analysis size: configured, or derived from the requests' model inputs.
    var analysisMaxDimension: Int {
        if let configured = configuration.analysisMaxDimension { return Swift.max(16, configured) }
        let inputs = requests.compactMap { request -> Int? in
            let model: VisionModel? = (request as? DetectObjectsRequest)?.model ?? (request as? ClassifyImageRequest)?.model
                ?? (request as? RunModelRequest)?.model
            return model.map { Swift.max($0.modelDescription.preprocessing.width, $0.modelDescription.preprocessing.height) }
        }
        return inputs.max().map { $0 * 2 } ?? 1280
    }

    fileprivate func update(_ body: (inout Shared) -> Void) { shared.withLock { body(&$0) } }
}

// MARK: - Counters

/// Counters and timings of a `LiveAnalyzer`.
public struct LiveStats: Sendable, Hashable {
    /// The pipeline's state.
    public enum State: String, Sendable, Hashable { case starting, running, reconnecting, ended, failed, cancelled }

    public var state: State
    public var framesCaptured: Int
    public var framesAnalysed: Int
    /// Frames replaced in the mailbox before analysis could take them.
    public var framesDropped: Int
    /// Results a slow consumer did not take in time (newest kept).
    public var resultsDropped: Int
    /// Reconnections of a network stream.
    public var reconnects: Int
    public var captureFPS: Double
    public var analysedFPS: Double
    /// Capture-to-result latency percentiles over the last 1000 results, in milliseconds.
    public var latencyP50Ms: Double
    public var latencyP99Ms: Double
    /// Mean milliseconds per stage: reading + decoding a frame, downscaling it, running the requests.
    public var captureMs: Double
    public var downscaleMs: Double
    public var analysisMs: Double
    /// The most in flight at once (1 by design).
    public var maxInFlight: Int
    /// What the source delivers.
    public var captureInfo: CaptureInfo?
}

struct Shared {
    var state = LiveStats.State.starting
    var captured = 0, analysed = 0, dropped = 0, resultsDropped = 0, reconnects = 0
    var firstCapture: ContinuousClock.Instant?
    var lastCapture: ContinuousClock.Instant?
    var firstResult: ContinuousClock.Instant?
    var lastResult: ContinuousClock.Instant?
    var latencies: [Double] = []
    var latencyCursor = 0
    var captureTotal = 0.0, downscaleTotal = 0.0, analysisTotal = 0.0
    var inFlight = 0, maxInFlight = 0
    var info: CaptureInfo?

    mutating func recordLatency(_ ms: Double) {
        if latencies.count < 1000 { latencies.append(ms) } else { latencies[latencyCursor] = ms; latencyCursor = (latencyCursor + 1) % 1000 }
    }

    func snapshot() -> LiveStats {
        func rate(_ count: Int, _ a: ContinuousClock.Instant?, _ b: ContinuousClock.Instant?) -> Double {
            guard count > 1, let a, let b else { return 0 }
            let seconds = (b - a).seconds
            return seconds > 0 ? Double(count - 1) / seconds : 0
        }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
        }
        return LiveStats(state: state, framesCaptured: captured, framesAnalysed: analysed, framesDropped: dropped,
                         resultsDropped: resultsDropped, reconnects: reconnects,
                         captureFPS: rate(captured, firstCapture, lastCapture), analysedFPS: rate(analysed, firstResult, lastResult),
                         latencyP50Ms: percentile(0.5), latencyP99Ms: percentile(0.99),
                         captureMs: captured > 0 ? captureTotal / Double(captured) : 0,
                         downscaleMs: analysed > 0 ? downscaleTotal / Double(analysed) : 0,
                         analysisMs: analysed > 0 ? analysisTotal / Double(analysed) : 0,
                         maxInFlight: maxInFlight, captureInfo: info)
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    var milliseconds: Double { seconds * 1000 }
}

// MARK: - The two threads

/// Capture thread → mailbox (one frame) → analysis thread → result stream.
private final class Pipeline: @unchecked Sendable {
    let analyzer: LiveAnalyzer
    let continuation: AsyncThrowingStream<LiveResult, any Error>.Continuation
    private let mailbox = Mutex<Mailbox>(Mailbox())
    private let itemReady = DispatchSemaphore(value: 0)
    private let spaceFree = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// Every-frame mode: one credit per result the consumer may still take before analysis waits.
    private let credits: DispatchSemaphore?

    struct Mailbox {
        var frame: Frame?
        var finished = false
        var error: VisionError?
    }

    init(analyzer: LiveAnalyzer, continuation: AsyncThrowingStream<LiveResult, any Error>.Continuation,
         credits: DispatchSemaphore?) {
        self.analyzer = analyzer
        self.continuation = continuation
        self.credits = credits
    }

    func start() {
        let capture = Thread { [self] in captureLoop() }
        capture.name = "openvision-capture"
        let analysis = Thread { [self] in analysisLoop() }
        analysis.name = "openvision-analysis"
        capture.start()
        analysis.start()
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        analyzer.update { if $0.state != .ended && $0.state != .failed { $0.state = .cancelled } }
        itemReady.signal()
        spaceFree.signal()
        credits?.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    // MARK: Capture

    private func open(reconnecting: Bool = false) throws(VisionError) -> VideoCapture {
        let options = analyzer.options
        let clock = ContinuousClock()
        let deadline = clock.now + options.reconnectFor
        var delay = Duration.milliseconds(250)
        while true {
            do {
                return try VideoCapture(analyzer.source, options: options)
            } catch {
                // Only live sources are retried: a missing file stays missing, and so does a camera
                // missing at the start (one unplugged while running may come back).
                guard analyzer.source.isLive, reconnecting || error.code != .fileNotFound,
                      clock.now + delay < deadline, !isStopped else { throw error }
                analyzer.update { $0.state = .reconnecting }
                Thread.sleep(forTimeInterval: delay.seconds)
                delay = min(delay * 2, .seconds(4))
            }
        }
    }

    private func captureLoop() {
        let clock = ContinuousClock()
        var capture: VideoCapture
        do {
            capture = try open()
        } catch {
            finishCapture(error: error)
            return
        }
        analyzer.update { $0.state = .running; $0.info = capture.info }
        let pacing = !analyzer.source.isLive && analyzer.options.pace == .native
        let fps = capture.info.fps > 0 ? capture.info.fps : analyzer.options.imageSequenceFPS
        let paceStart = clock.now
        var index = 0
        while !isStopped {
            let readStart = clock.now
            let next: (VisionImage, Double?)?
            do {
                next = try capture.read()
            } catch {
                guard analyzer.source.isLive, analyzer.options.reconnectFor > .zero else { finishCapture(error: error); return }
                do {
                    analyzer.update { $0.state = .reconnecting }
                    capture = try open(reconnecting: true)
                    analyzer.update { $0.state = .running; $0.reconnects += 1 }
                    continue
                } catch {
                    finishCapture(error: error)
                    return
                }
            }
            guard let (captured, timestamp) = next else {
                analyzer.update { $0.info = capture.info }  // now saying whether the file ended early
                break
            }
            var image = captured
            if analyzer.options.orientation != .up {
                do { image = try image.oriented(analyzer.options.orientation) } catch { finishCapture(error: error); return }
            }
            let now = clock.now
            let frame = Frame(index: index, captureTime: now, sourceTimestamp: timestamp, image: image)
            analyzer.update {
                $0.captured += 1
                $0.firstCapture = $0.firstCapture ?? now
                $0.lastCapture = now
                $0.captureTotal += (now - readStart).milliseconds
            }
            analyzer.configuration.preview?(frame)
            if !analyzer.captureWaitsForAnalysis {
                let wasEmpty = mailbox.withLock { box -> Bool in
                    let empty = box.frame == nil
                    box.frame = frame
                    return empty
                }
                if wasEmpty { itemReady.signal() } else { analyzer.update { $0.dropped += 1 } }
            } else {
                mailbox.withLock { $0.frame = frame }
                itemReady.signal()
                spaceFree.wait()  // the analysis thread took it (or we are stopping)
            }
            index += 1
            if pacing {
                let due = paceStart + .seconds(Double(index) / fps)
                let wait = due - clock.now
                if wait > .zero { Thread.sleep(forTimeInterval: wait.seconds) }
            }
        }
        finishCapture(error: nil)
    }

    private func finishCapture(error: VisionError?) {
        mailbox.withLock {
            $0.finished = true
            $0.error = error
        }
        itemReady.signal()
    }

    // MARK: Analysis

    private func analysisLoop() {
        let clock = ContinuousClock()
        let maxDimension = analyzer.analysisMaxDimension
        while true {
            itemReady.wait()
            if isStopped { break }
            let (frame, finished, error) = mailbox.withLock { box -> (Frame?, Bool, VisionError?) in
                defer { box.frame = nil }
                return (box.frame, box.finished, box.error)
            }
            guard let frame else {
                if finished {
                    analyzer.update { $0.state = error == nil ? .ended : .failed }
                    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
                    return
                }
                continue
            }
            if analyzer.captureWaitsForAnalysis { spaceFree.signal() }
            if finished {
                // The capture thread is done; analyse this last frame, then come back for the end.
                itemReady.signal()
            }
            analyzer.update { $0.inFlight += 1; $0.maxInFlight = max($0.maxInFlight, $0.inFlight) }
            let start = clock.now
            let image = (try? downscale(frame.image, to: maxDimension)) ?? frame.image
            let scaled = clock.now
            let outcomes = ImageRequestHandler.performAllBlocking(analyzer.requests, in: ImageAnalysisContext(image: image))
            let end = clock.now
            let result = LiveResult(frameIndex: frame.index, captureTime: frame.captureTime, sourceTimestamp: frame.sourceTimestamp,
                                    image: frame.image, outcomes: outcomes, latency: end - frame.captureTime,
                                    downscale: scaled - start, analysis: end - scaled)
            analyzer.update {
                $0.inFlight -= 1
                $0.analysed += 1
                $0.firstResult = $0.firstResult ?? end
                $0.lastResult = end
                $0.recordLatency((end - frame.captureTime).milliseconds)
                $0.downscaleTotal += (scaled - start).milliseconds
                $0.analysisTotal += (end - scaled).milliseconds
            }
            credits?.wait()
            if isStopped { break }
            if case .dropped = continuation.yield(result) { analyzer.update { $0.resultsDropped += 1 } }
        }
        continuation.finish()
    }

    private func downscale(_ image: VisionImage, to maxDimension: Int) throws(VisionError) -> VisionImage {
        let longest = max(image.width, image.height)
        guard longest > maxDimension else { return image }
        let scale = Double(maxDimension) / Double(longest)
        return try image.resized(width: max(1, Int((Double(image.width) * scale).rounded())),
                                 height: max(1, Int((Double(image.height) * scale).rounded())))
    }
}
