import Foundation
import Synchronization

/// Capture thread → mailbox (one frame) → analysis thread → result stream. Reads only the
/// settings it was started with; reports through the shared counters.
final class LivePipeline: @unchecked Sendable {
    /// A snapshot of the analyzer's settings, taken when iteration starts.
    struct Settings: Sendable {
        let source: FrameSource
        let options: CaptureOptions
        let requests: [any VisionRequest]
        let preview: (@Sendable (Frame) -> Void)?
        let captureWaitsForAnalysis: Bool
        let analysisMaxDimension: Int
        /// Set when tracking runs (validated before the pipeline starts).
        let tracking: ObjectTracker.Configuration?
        let compensatesCameraMotion: Bool
        let lineCounter: LineCounter?
        let labelClassifier: ClassifyImageRequest?
        let labelClassifierInterval: Int
        let anchors: LiveAnchorStore
    }

    let settings: Settings
    let counters: LiveCounterStore
    let continuation: AsyncThrowingStream<LiveResult, any Error>.Continuation
    private let mailbox = Mutex<Mailbox>(Mailbox())
    private let itemReady = DispatchSemaphore(value: 0)
    private let spaceFree = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// Every-frame mode: one credit per result the consumer may still take before analysis waits.
    private let credits: DispatchSemaphore?
    /// Entered once per thread at start, left when the thread returns.
    private let threads: DispatchGroup

    struct Mailbox {
        var frame: Frame?
        var finished = false
        var error: VisionError?
    }

    /// `threads` is entered for each of the two threads and left as each returns.
    init(
        settings: Settings, counters: LiveCounterStore,
        continuation: AsyncThrowingStream<LiveResult, any Error>.Continuation,
        credits: DispatchSemaphore?, threads: DispatchGroup
    ) {
        self.settings = settings
        self.counters = counters
        self.continuation = continuation
        self.credits = credits
        self.threads = threads
    }

    func start() {
        threads.enter()
        threads.enter()
        let capture = Thread { [self] in
            defer { threads.leave() }
            captureLoop()
        }
        capture.name = "openvision-capture"
        let analysis = Thread { [self] in
            defer { threads.leave() }
            analysisLoop()
        }
        analysis.name = "openvision-analysis"
        capture.start()
        analysis.start()
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        counters.update { if $0.state != .ended && $0.state != .failed { $0.state = .cancelled } }
        itemReady.signal()
        spaceFree.signal()
        credits?.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    // MARK: Capture

    private func open(reconnecting: Bool = false) throws(VisionError) -> VideoCapture {
        let options = settings.options
        let clock = ContinuousClock()
        let deadline = clock.now + options.reconnectFor
        var delay = Duration.milliseconds(250)
        while true {
            do {
                return try VideoCapture(settings.source, options: options)
            } catch {
                // Only live sources are retried: a missing file stays missing, and so does a camera
                // missing at the start (one unplugged while running may come back).
                guard settings.source.isLive, reconnecting || error.code != .fileNotFound,
                    clock.now + delay < deadline, !isStopped
                else { throw error }
                counters.update { $0.state = .reconnecting }
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
        counters.update {
            $0.state = .running
            $0.info = capture.info
        }
        let pacing = !settings.source.isLive && settings.options.pace == .native
        let fps = capture.info.fps > 0 ? capture.info.fps : settings.options.imageSequenceFPS
        let paceStart = clock.now
        var index = 0
        // Files and image folders are read one frame ahead, so that their last frame is known as the last (its
        // results end the tracks still alive); a read error ahead ends the source after the frame before it.
        let readsAhead = !settings.source.isLive
        var ahead: (VisionImage, Double?)?? = nil
        var errorAhead: VisionError?
        while !isStopped {
            let readStart = clock.now
            let next: (VisionImage, Double?)?
            if let errorAhead {
                finishCapture(error: errorAhead)
                return
            }
            do {
                if let read = ahead {
                    next = read
                    ahead = nil
                } else {
                    next = try capture.read()
                }
            } catch {
                guard settings.source.isLive, settings.options.reconnectFor > .zero else {
                    finishCapture(error: error)
                    return
                }
                do {
                    counters.update { $0.state = .reconnecting }
                    capture = try open(reconnecting: true)
                    counters.update {
                        $0.state = .running
                        $0.reconnects += 1
                    }
                    continue
                } catch {
                    finishCapture(error: error)
                    return
                }
            }
            guard let (captured, timestamp) = next else {
                counters.update { $0.info = capture.info }  // now saying whether the file ended early
                break
            }
            var isLast = false
            if readsAhead {
                do {
                    let read = try capture.read()
                    ahead = .some(read)
                    isLast = read == nil
                } catch {
                    errorAhead = error
                    isLast = true
                }
            }
            var image = captured
            if settings.options.orientation != .up {
                do { image = try image.oriented(settings.options.orientation) } catch {
                    finishCapture(error: error)
                    return
                }
            }
            let now = clock.now
            var frame = Frame(index: index, captureTime: now, sourceTimestamp: timestamp, image: image)
            frame.isLastOfSource = isLast
            counters.update {
                $0.captured += 1
                $0.firstCapture = $0.firstCapture ?? now
                $0.lastCapture = now
                $0.captureTotal += (now - readStart).milliseconds
            }
            settings.preview?(frame)
            if !settings.captureWaitsForAnalysis {
                let wasEmpty = mailbox.withLock { box -> Bool in
                    let empty = box.frame == nil
                    box.frame = frame
                    return empty
                }
                if wasEmpty { itemReady.signal() } else { counters.update { $0.dropped += 1 } }
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

    /// The camera's motion from the previous analysed frame to this one, in normalised lower-left coordinates (the
    /// detections'): the inverse of the registration of this frame onto the previous one, scaled from pixels. Nil
    /// on the first frame, for a frame that does not register, and for a singular warp.
    static func cameraMotion(
        _ registration: TrackHomographicImageRegistrationRequest, in context: ImageAnalysisContext,
        width: Int, height: Int
    ) -> Matrix3x3? {
        guard let warp = (try? registration.perform(in: context)) ?? nil, let motion = warp.warpTransform.inverse else {
            return nil
        }
        let (w, h) = (Double(width), Double(height))
        let toPixels = Matrix3x3(rowMajor: [w, 0, 0, 0, h, 0, 0, 0, 1])
        let toUnit = Matrix3x3(rowMajor: [1 / w, 0, 0, 0, 1 / h, 0, 0, 0, 1])
        return toUnit * motion * toPixels
    }

    private func analysisLoop() {
        let clock = ContinuousClock()
        let maxDimension = settings.analysisMaxDimension
        // Frame-to-frame state of the analysis step, owned by this thread.
        var tracker = settings.tracking.flatMap { try? ObjectTracker(configuration: $0) }
        let registration =
            tracker != nil && settings.compensatesCameraMotion ? TrackHomographicImageRegistrationRequest() : nil
        var counter = settings.lineCounter
        var analysedCount = 0
        while true {
            itemReady.wait()
            if isStopped { break }
            let (frame, finished, error) = mailbox.withLock { box -> (Frame?, Bool, VisionError?) in
                defer { box.frame = nil }
                return (box.frame, box.finished, box.error)
            }
            guard let frame else {
                if finished {
                    counters.update { $0.state = error == nil ? .ended : .failed }
                    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
                    return
                }
                continue
            }
            if settings.captureWaitsForAnalysis { spaceFree.signal() }
            if finished {
                // The capture thread is done; analyse this last frame, then come back for the end.
                itemReady.signal()
            }
            counters.update {
                $0.inFlight += 1
                $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
            }
            let start = clock.now
            let image = (try? downscale(frame.image, to: maxDimension)) ?? frame.image
            let scaled = clock.now
            // Stateful requests (flow, registration, trajectories) are the same instances every frame and
            // keep the previous analysed frame themselves; frames reach them in order, one at a time.
            let frameTime = frame.sourceTimestamp.map { Duration.seconds($0) }
            let context = ImageAnalysisContext(image: image, frameTime: frameTime)
            let outcomes = RequestRunner.performAllBlocking(settings.requests, in: context)
            let analysed = clock.now
            var tracking: ObjectTracker.Update?
            var crossings: [LineCounter.Crossing] = []
            if var running = tracker {
                // A frame whose detector failed is a frame where nothing was detected.
                let objects = LiveResult.detectedObjects(in: outcomes)?.objects ?? []
                let motion = registration.flatMap {
                    Self.cameraMotion($0, in: context, width: image.width, height: image.height)
                }
                var update = running.update(objects.map(ObjectTracker.Detection.init), cameraMotion: motion)
                // The source's last frame ends the tracks still alive.
                if frame.isLastOfSource { update.ended = (update.ended + running.finish()).sorted() }
                tracker = running
                tracking = update
                if var line = counter {
                    crossings = line.update(tracks: update.tracks, ended: update.ended)
                    counter = line
                }
            }
            // The corner label: the label classifier on its frames, else a classification among the requests.
            var top: ClassificationObservation?
            if let classifier = settings.labelClassifier {
                if analysedCount % settings.labelClassifierInterval == 0 {
                    top =
                        RequestRunner.performAllBlocking([classifier], in: context).first?.results(
                            as: ClassifyImageRequest.self)?.first
                }
            } else {
                top = outcomes.lazy.compactMap { $0.results(as: ClassifyImageRequest.self)?.first }.first
            }
            analysedCount += 1
            let pinned = settings.anchors.update(with: image, topLabel: top)
            let end = clock.now
            var result = LiveResult(
                frameIndex: frame.index, captureTime: frame.captureTime, sourceTimestamp: frame.sourceTimestamp,
                image: frame.image, outcomes: outcomes, latency: end - frame.captureTime,
                downscale: scaled - start, analysis: analysed - scaled)
            result.tracking = tracking
            result.lineCrossings = crossings
            result.lineCounts = counter?.counts
            result.lineSegment = counter.map { ($0.start, $0.end) }
            result.anchors = pinned.anchors
            result.topLabel = pinned.topLabel
            result.postAnalysis = end - analysed
            counters.update {
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
            if case .dropped = continuation.yield(result) { counters.update { $0.resultsDropped += 1 } }
        }
        continuation.finish()
    }

    private func downscale(_ image: VisionImage, to maxDimension: Int) throws(VisionError) -> VisionImage {
        let longest = max(image.width, image.height)
        guard longest > maxDimension else { return image }
        let scale = Double(maxDimension) / Double(longest)
        return try image.resized(
            width: max(1, Int((Double(image.width) * scale).rounded())),
            height: max(1, Int((Double(image.height) * scale).rounded())))
    }
}
