import ArgumentParser
import Foundation
import OpenVision
import OpenVisionViewer
import Synchronization

/// `openvision live`: a camera or network stream through the live pipeline, optionally served
/// to a browser (full-rate MJPEG preview, overlays drawn from an event stream).
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Analyse a camera, stream, video file or image folder live; watch it in a browser with --serve.",
        discussion:
            "SOURCE: 0 or /dev/video0 (camera), rtsp:// or http(s):// (stream), a video file, or an image folder or printf pattern (frames/img_%04d.jpg). Stops at the end of the source, after --duration, or on Ctrl-C (SIGINT) or SIGTERM; the output video and JSON Lines are finished either way. Prints stats on standard error each second. Exit status as for `openvision video`: 0, 1 error, \(ExitStatus.sourceEndedEarly) a video file that ended early, 130 / 143 after SIGINT / SIGTERM."
    )

    @Option(name: .shortAndLong, help: "The source.") var source: String
    @OptionGroup var analysis: AnalysisOptions
    @Option(
        help: ArgumentHelp(
            "Serve the live viewer at ADDR:PORT: 127.0.0.1:8080, 8080 (loopback), [::1]:8080 (IPv6), 0.0.0.0:8080 (all interfaces, unauthenticated); port 0 picks a free one.",
            valueName: "addr:port"))
    var serve: String?
    @Option(help: "Stop after this many seconds.") var duration: Double?
    @Option(help: "Annotated output video.") var out: String?
    @Option(help: "JSON Lines output, one object per analysed frame.") var jsonl: String?
    @Option(help: "Camera width to request.") var width: Int = 0
    @Option(help: "Camera height to request.") var height: Int = 0
    @Option(help: "Camera frame rate to request.") var fps: Double = 0
    @Option(help: "Camera pixel format to request (MJPG, YUYV).") var fourcc: String = ""
    @Option(help: "How the camera is mounted: up, right, left, down, …") var orientation: String = "up"
    @Option(help: "Stream reconnect window in seconds (0 = fail on the first drop).") var reconnect: Double = 30
    @Flag(
        help:
            "Pinned labels (Apple's 'Recognizing and Labeling Arbitrary Objects'): classify the analysed frames with the default classifier (EfficientNet-Lite0, ImageNet; every 5th, see --classify-every) and show the top class in the viewer's corner; a click on the preview pins that label there, tracked frame to frame; with --serve, POST/GET /anchors and DELETE /anchors/{id} do the same over HTTP. Anchors and the top class are in the JSON Lines."
    )
    var pinLabels = false
    @Option(
        help:
            "With --pin-labels: classify every N-th analysed frame; the corner label holds in between (EfficientNet-Lite0 costs about what Yolo-Fastest does per analysed frame: 27 vs 25 ms at 640×480, openvision-bench live-extras)."
    )
    var classifyEvery: Int = 5

    func validate() throws {
        guard classifyEvery >= 1 else { throw ValidationError("--classify-every must be at least 1") }
        if let serve {
            do { _ = try ListenAddress(parsing: serve) } catch { throw ValidationError("--serve: \(error)") }
        }
    }

    func run() async throws {
        let interruption = Interruption()
        let requests = try await analysis.makeRequests()
        var options = CaptureOptions()
        options.width = width
        options.height = height
        options.fps = fps
        options.fourcc = fourcc
        options.reconnectFor = .seconds(reconnect)
        guard
            let mounted = ImageOrientation.allCases.first(where: {
                $0.description.lowercased() == orientation.lowercased()
            })
        else {
            throw ValidationError("unknown orientation '\(orientation)'")
        }
        options.orientation = mounted

        // Video and codec modules load before the viewer accepts clients: its memory is steady from the first request.
        try LiveAnalyzer.prewarm()
        let server = try await startServer()

        let output = out.map(AnnotatedVideoOutput.init(path:))
        let latest = Mutex<[OverlayItem]>([])
        var configuration = LiveAnalyzer.Configuration()
        configuration.analysisMaxDimension = analysis.analysisSize
        try analysis.configureTracking(&configuration)
        if pinLabels {
            // Load the classifier now: a missing model is an error before the run, not a silent corner.
            var classifier = ClassifyImageRequest(model: try ClassifyImageRequest().resolvedModel())
            classifier.maximumObservations = 1
            configuration.labelClassifier = classifier
            configuration.labelClassifierInterval = classifyEvery
        }
        let start = ContinuousClock.now
        configuration.preview = { [server] frame in
            // Full-rate preview: every frame to the browser and the video, with the latest overlays.
            if let server, let jpeg = try? frame.image.encoded(as: .jpeg, quality: 80) {
                server.publish(
                    frame: PreviewFrame(
                        jpeg: [UInt8](jpeg), width: frame.image.width, height: frame.image.height,
                        index: frame.index, timestamp: (frame.captureTime - start).milliseconds / 1000))
            }
            output?.write(frame.image, items: latest.withLock { $0 }, fps: 30)
        }
        let analyzer = LiveAnalyzer(
            source: FrameSource(parsing: source), options: options, requests: requests,
            configuration: configuration)
        if pinLabels { server?.serveAnchors(AnalyzerAnchorService(analyzer: analyzer)) }
        let lines = try jsonl.map { try JSONLinesWriter(path: $0) }
        // Results handled (published, written out): what the report counts.
        let written = Atomic<Int>(0)
        let task = Task {
            var lastReport = ContinuousClock.now
            for try await result in analyzer {
                let items = OverlayItem.items(for: result)
                // The video gets the pinned labels drawn in; the viewer draws them itself (with their ×).
                latest.withLock { $0 = items + result.anchors.map(Self.anchorItem) }
                let stats = analyzer.stats()
                server?.publish(
                    overlay: OverlayUpdate(
                        frameIndex: result.frameIndex, timestamp: (result.captureTime - start).milliseconds / 1000,
                        items: items.compactMap(Self.serverItem),
                        stats: .init(
                            captureFPS: stats.captureFPS, analysedFPS: stats.analysedFPS,
                            dropped: stats.framesDropped, latencyP50Ms: stats.latencyP50Ms,
                            latencyP99Ms: stats.latencyP99Ms),
                        counting: result.lineCounts.map {
                            .init(
                                totalIn: $0.totalIn, totalOut: $0.totalOut, inByLabel: $0.inByLabel,
                                outByLabel: $0.outByLabel)
                        },
                        topLabel: result.topLabel.map {
                            .init(identifier: $0.identifier, confidence: Double($0.confidence))
                        },
                        anchors: pinLabels ? result.anchors.map(AnalyzerAnchorService.wire) : nil))
                try lines?.write(result)
                written.add(1, ordering: .relaxed)
                if ContinuousClock.now - lastReport > .seconds(1) {
                    lastReport = ContinuousClock.now
                    FileHandle.standardError.write(Data(Self.statsLine(stats).utf8))
                }
            }
        }
        // Ctrl-C, SIGTERM and --duration end the run cleanly.
        interruption.cancels(task)
        if let duration {
            Task {
                try? await Task.sleep(for: .seconds(duration))
                task.cancel()
            }
        }
        let outcome = await task.result
        // The frame in analysis finishes and the threads return before anything is closed or the
        // process exits (exit's static destructors must not run under a native call).
        _ = await analyzer.waitUntilStopped(timeout: .seconds(10))
        output?.finish()
        lines?.close()
        switch outcome {
        case .success: server?.publish(status: ViewerStatus(state: .ended, detail: "end of source"))
        case .failure(let error) where !(error is CancellationError) && interruption.received == nil:
            // Viewers see why, not just "server stopped".
            server?.publish(
                status: ViewerStatus(state: .failed, detail: (error as? VisionError)?.message ?? "\(error)"))
        case .failure: break
        }
        await server?.stop()
        let stats = analyzer.stats()
        FileHandle.standardError.write(Data(Self.statsLine(stats).utf8))
        try finishRun(
            outcome, stats: stats, written: written.load(ordering: .relaxed), interruption: interruption,
            output: output, source: source)
    }

    /// Starts the viewer when --serve was given.
    private func startServer() async throws -> LiveViewerServer? {
        guard let serve else { return nil }
        let address = try ListenAddress(parsing: serve)
        let server = LiveViewerServer(address: address)
        try await server.start()
        FileHandle.standardError.write(
            Data("live viewer: http://\(ListenAddress(host: address.host, port: server.boundPort))/\n".utf8))
        return server
    }

    static func statsLine(_ s: LiveStats) -> String {
        String(
            format:
                "[%@] captured %d (%.1f fps), analysed %d (%.1f fps), dropped %d, latency p50 %.1f ms p99 %.1f ms, reconnects %d\n",
            s.state.rawValue, s.framesCaptured, s.captureFPS, s.framesAnalysed, s.analysedFPS, s.framesDropped,
            s.latencyP50Ms, s.latencyP99Ms, s.reconnects)
    }

    /// A pinned label drawn into the output video: a dot and its label, green when tracked, yellow when limited,
    /// red (at its last known point) when lost.
    static func anchorItem(_ anchor: Anchor) -> OverlayItem {
        let color: OverlayColor =
            switch anchor.state {
            case .normal: .green
            case .limited: .yellow
            case .lost: .red
            }
        let suffix = anchor.state == .normal ? "" : " (\(anchor.state.rawValue))"
        return OverlayItem(
            shape: .points([NormalizedPoint(x: anchor.point.x, y: anchor.point.y)]), color: color,
            label: anchor.label + suffix, lineWidth: 6)
    }

    /// The viewer's form of an overlay item; nil for a heat map that cannot be encoded.
    static func serverItem(_ item: OverlayItem) -> OverlayUpdate.Item? {
        let color = String(format: "#%02x%02x%02x", item.color.red, item.color.green, item.color.blue)
        switch item.shape {
        case .polygon(let points, let closed):
            return .init(points: points.map { [$0.x, $0.y] }, closed: closed, color: color, label: item.label)
        case .points(let points):
            return .init(points: points.map { [$0.x, $0.y] }, closed: false, color: color, label: item.label)
        case .heatMap(let map, let region, let opacity):
            // A 68 × 68 RGBA PNG, a few KB in the event; a map that cannot be encoded is left out (nil).
            guard let png = try? map.heatMapPNGData() else { return nil }
            return .image(
                png: [UInt8](png), x: region.x, y: region.y, width: region.width, height: region.height,
                opacity: opacity)
        }
    }
}

/// The viewer's `/anchors` endpoints, answered by the running analyzer.
struct AnalyzerAnchorService: AnchorService {
    let analyzer: LiveAnalyzer

    static func wire(_ anchor: Anchor) -> PinnedAnchor {
        PinnedAnchor(
            id: anchor.id, label: anchor.label, x: anchor.point.x, y: anchor.point.y, state: anchor.state.rawValue)
    }

    func listAnchors() -> [PinnedAnchor] { analyzer.anchors.map(Self.wire) }

    func addAnchor(x: Double, y: Double, label: String?) throws(AnchorServiceError) -> PinnedAnchor {
        guard analyzer.hasAnalysedFrame else {
            throw AnchorServiceError(status: 503, message: "no frame has been analysed yet; try again in a moment")
        }
        guard label != nil || analyzer.topLabel != nil else {
            throw AnchorServiceError(status: 409, message: "no top class yet to label the pin with; give a label")
        }
        guard analyzer.anchors.count < LiveAnalyzer.maximumPinnedLabels else {
            throw AnchorServiceError(
                status: 409,
                message:
                    "at most \(LiveAnalyzer.maximumPinnedLabels) labels can be pinned at once: remove one first (DELETE /anchors/{id})"
            )
        }
        do {
            return Self.wire(try analyzer.pinLabel(at: CGPoint(x: x, y: y), label: label))
        } catch {
            throw AnchorServiceError(status: 400, message: error.message)
        }
    }

    func removeAnchor(id: Int) -> Bool { analyzer.removeAnchor(id: id) }
}
