import Foundation
import Synchronization

/// Counters and timings of a `LiveAnalyzer`.
public struct LiveStats: Sendable, Hashable {
    /// The pipeline's state.
    public enum State: String, Sendable, Hashable {
        /// Opening the source; no frame yet.
        case starting
        /// Frames are arriving and being analysed.
        case running
        /// The stream dropped; opening it again within the reconnect window.
        case reconnecting
        /// The source ended (a file's last frame, `--duration`).
        case ended
        /// The source or the analysis failed (the error ends the results' stream).
        case failed
        /// The consuming task was cancelled.
        case cancelled
    }

    /// Where the pipeline is: starting, running, reconnecting, or ended, failed or cancelled.
    public var state: State
    /// Frames read from the source so far.
    public var framesCaptured: Int
    /// Frames the requests ran on so far.
    public var framesAnalysed: Int
    /// Frames replaced in the mailbox before analysis could take them.
    public var framesDropped: Int
    /// Results a slow consumer did not take in time (newest kept).
    public var resultsDropped: Int
    /// Reconnections of a network stream.
    public var reconnects: Int
    /// Frames read per second, recently.
    public var captureFPS: Double
    /// Frames analysed per second, recently.
    public var analysedFPS: Double
    /// Capture-to-result latency percentiles over the last 1000 results, in milliseconds.
    public var latencyP50Ms: Double
    /// The 99th percentile of the same latency, in milliseconds.
    public var latencyP99Ms: Double
    /// Mean milliseconds per stage: reading + decoding a frame, downscaling it, running the requests.
    public var captureMs: Double
    /// Mean milliseconds downscaling a frame for the requests.
    public var downscaleMs: Double
    /// Mean milliseconds running the requests on a frame.
    public var analysisMs: Double
    /// The most in flight at once (1 by design).
    public var maxInFlight: Int
    /// What the source delivers.
    public var captureInfo: CaptureInfo?
}

/// The pipeline's running counts, behind `LiveCounterStore`'s lock.
struct LiveCounters {
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
        if latencies.count < 1000 {
            latencies.append(ms)
        } else {
            latencies[latencyCursor] = ms
            latencyCursor = (latencyCursor + 1) % 1000
        }
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
        return LiveStats(
            state: state, framesCaptured: captured, framesAnalysed: analysed, framesDropped: dropped,
            resultsDropped: resultsDropped, reconnects: reconnects,
            captureFPS: rate(captured, firstCapture, lastCapture), analysedFPS: rate(analysed, firstResult, lastResult),
            latencyP50Ms: percentile(0.5), latencyP99Ms: percentile(0.99),
            captureMs: captured > 0 ? captureTotal / Double(captured) : 0,
            downscaleMs: analysed > 0 ? downscaleTotal / Double(analysed) : 0,
            analysisMs: analysed > 0 ? analysisTotal / Double(analysed) : 0,
            maxInFlight: maxInFlight, captureInfo: info)
    }
}

/// The counters, shared by a `LiveAnalyzer` (reading snapshots) and its pipeline (updating them).
final class LiveCounterStore: Sendable {
    private let counters = Mutex(LiveCounters())

    func update(_ body: (inout LiveCounters) -> Void) { counters.withLock { body(&$0) } }

    func snapshot() -> LiveStats { counters.withLock { $0.snapshot() } }
}
