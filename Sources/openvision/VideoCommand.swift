import ArgumentParser
import Foundation
import OpenVision
import Synchronization

/// `openvision video`: analyse a video file, writing an annotated copy and/or JSON Lines.
struct VideoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract:
            "Analyse a video file or image sequence: annotated video (boxes, labels, landmarks) and JSON Lines per frame.",
        discussion: """
            By default every frame is analysed. With --realtime the file plays at its own frame rate through the live pipeline (one frame in flight, newer frames replace the waiting one) and every frame is drawn with the latest observations.

            Ctrl-C (SIGINT) or SIGTERM stops the run cleanly: the output video is finished (playable, holding every frame written) and the JSON Lines closed.

            Exit status: 0 done; 1 error (outputs finished up to it); \(ExitStatus.sourceEndedEarly) the file ended before the frames its container lists (cut short or damaged; a warning says how many were read, and everything readable was analysed and written); 130 / 143 stopped by SIGINT / SIGTERM.
            """
    )

    @Argument(
        help:
            "The input video (mp4, avi, mkv, webm, …), or an image folder or printf pattern (frames/img_%04d.jpg) read as a frame sequence."
    )
    var input: String
    @Option(name: .shortAndLong, help: "Annotated output video (.mp4, .avi, .mkv).") var out: String?
    @Option(help: "JSON Lines output, one object per analysed frame.") var jsonl: String?
    @Flag(help: "Play at the file's pace and drop frames while analysis is busy, as live sources do.") var realtime =
        false
    @OptionGroup var analysis: AnalysisOptions

    func run() async throws {
        let interruption = Interruption()
        let requests = try await analysis.makeRequests()
        var options = CaptureOptions()
        options.pace = realtime ? .native : .fastest
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = realtime
        configuration.analysisMaxDimension = analysis.analysisSize
        try analysis.configureTracking(&configuration)
        let output = out.map(AnnotatedVideoOutput.init(path:))
        let latest = Mutex<[OverlayItem]>([])
        let fpsBox = Mutex<Double>(30)
        if realtime, let output {
            configuration.preview = { frame in
                output.write(frame.image, items: latest.withLock { $0 }, fps: fpsBox.withLock { $0 })
            }
        }
        // A folder or pattern is an image sequence (at CaptureOptions.imageSequenceFPS); anything else a video file.
        let parsed = FrameSource(parsing: input)
        let source: FrameSource = if case .images = parsed { parsed } else { .file(URL(fileURLWithPath: input)) }
        let analyzer = LiveAnalyzer(
            source: source, options: options, requests: requests,
            configuration: configuration)
        let lines = try jsonl.map { try JSONLinesWriter(path: $0) }
        let realtime = realtime
        // Results written out (JSON Lines, video): what the report counts.
        let written = Atomic<Int>(0)
        let task = Task {
            var progress: ProgressBar?
            do {
                for try await result in analyzer {
                    if progress == nil, let info = analyzer.stats().captureInfo {
                        fpsBox.withLock { $0 = info.fps > 0 ? info.fps : 30 }
                        if info.frameCount > 0 { progress = ProgressBar(total: info.frameCount, enabled: true) }
                    }
                    let items = OverlayItem.items(for: result)
                    if realtime {
                        latest.withLock { $0 = items }
                    } else {
                        output?.write(result.image, items: items, fps: fpsBox.withLock { $0 })
                    }
                    try lines?.write(result)
                    written.add(1, ordering: .relaxed)
                    progress?.update(result.frameIndex + 1, label: "frame \(result.frameIndex)")
                    if let error = output?.error { throw error }
                }
            } catch {
                progress?.clear()
                throw error
            }
            if Task.isCancelled { progress?.clear() } else { progress?.finish() }
        }
        interruption.cancels(task)
        let outcome = await task.result
        // The frame in analysis finishes and the threads return before anything is closed or the
        // process exits (exit's static destructors must not run under a native call).
        _ = await analyzer.waitUntilStopped(timeout: .seconds(10))
        // Whatever ended the run (the end, an error, a signal), the outputs are completed.
        output?.finish()
        lines?.close()
        let s = analyzer.stats()
        let analysed = written.load(ordering: .relaxed)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "frames %d, analysed %d, dropped %d, %.1f analysed fps, latency p50 %.1f ms p99 %.1f ms\n",
                    s.framesCaptured, analysed, s.framesDropped, s.analysedFPS,
                    s.latencyP50Ms, s.latencyP99Ms
                ).utf8))
        try finishRun(outcome, stats: s, written: analysed, interruption: interruption, output: output, source: input)
    }
}
