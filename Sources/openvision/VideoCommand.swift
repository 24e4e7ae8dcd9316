import ArgumentParser
import Foundation
import OpenVision
import Synchronization

/// `openvision video`: analyse a video file, writing an annotated copy and/or JSON Lines.
struct VideoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Analyse a video file: annotated video (boxes, labels, landmarks) and JSON Lines per frame.",
        discussion: "By default every frame is analysed. With --realtime the file plays at its own frame rate through the live pipeline (one frame in flight, newer frames replace the waiting one) and every frame is drawn with the latest observations."
    )

    @Argument(help: "The input video (mp4, avi, mkv, webm, …).") var input: String
    @Option(name: .shortAndLong, help: "Annotated output video (.mp4, .avi, .mkv).") var out: String?
    @Option(help: "JSON Lines output, one object per analysed frame.") var jsonl: String?
    @Flag(help: "Play at the file's pace and drop frames while analysis is busy, as live sources do.") var realtime = false
    @OptionGroup var analysis: AnalysisOptions

    func run() async throws {
        let requests = try analysis.makeRequests()
        var options = CaptureOptions()
        options.pace = realtime ? .native : .fastest
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = realtime
        configuration.analysisMaxDimension = analysis.analysisSize
        let writer = Mutex<VideoFileWriter?>(nil)
        let latest = Mutex<[OverlayItem]>([])
        let failure = Mutex<VisionError?>(nil)
        let outURL = out.map { URL(fileURLWithPath: $0) }
        @Sendable func write(_ image: VisionImage, _ items: [OverlayItem], fps: Double) {
            guard let outURL else { return }
            writer.withLock { w in
                do {
                    if w == nil { w = try VideoFileWriter(url: outURL, fps: fps, width: image.width, height: image.height) }
                    try w?.write(try image.annotated(with: items))
                } catch let error as VisionError {
                    failure.withLock { $0 = $0 ?? error }
                } catch {
                    failure.withLock { $0 = $0 ?? VisionError(.internalError, "\(error)") }
                }
            }
        }
        let source = FrameSource.file(URL(fileURLWithPath: input))
        let fpsBox = Mutex<Double>(30)
        if realtime {
            configuration.preview = { frame in write(frame.image, latest.withLock { $0 }, fps: fpsBox.withLock { $0 }) }
        }
        let analyzer = LiveAnalyzer(source: source, options: options, requests: requests, configuration: configuration)
        let lines = try jsonl.map { try JSONLinesWriter(path: $0) }
        var progress: ProgressBar?
        do {
            for try await result in analyzer {
                let stats = analyzer.stats()
                if let info = stats.captureInfo {
                    fpsBox.withLock { $0 = info.fps > 0 ? info.fps : 30 }
                    if progress == nil && info.frameCount > 0 { progress = ProgressBar(total: info.frameCount, enabled: true) }
                }
                let items = result.outcomes.flatMap(OverlayItem.items(for:))
                if realtime { latest.withLock { $0 = items } } else { write(result.image, items, fps: fpsBox.withLock { $0 }) }
                try lines?.write(result)
                progress?.update(result.frameIndex + 1, label: "frame \(result.frameIndex)")
                if let error = failure.withLock({ $0 }) { throw error }
            }
        } catch let error as VisionError {
            progress?.clear()
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
            writer.withLock { $0?.finish() }
            lines?.close()
            throw ExitCode(1)
        }
        progress?.finish()
        writer.withLock { $0?.finish() }
        lines?.close()
        let s = analyzer.stats()
        FileHandle.standardError.write(Data(String(format: "frames %d, analysed %d, dropped %d, %.1f analysed fps, latency p50 %.1f ms p99 %.1f ms\n",
                                                   s.framesCaptured, s.framesAnalysed, s.framesDropped, s.analysedFPS,
                                                   s.latencyP50Ms, s.latencyP99Ms).utf8))
    }
}
