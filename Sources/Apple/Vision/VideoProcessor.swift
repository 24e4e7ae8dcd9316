import CoreMedia
import Foundation
import OpenVision

/// Runs requests on the frames of a video file (Vision's `VideoProcessor`): `addRequest(_:cadence:)` for each
/// request gives an asynchronous sequence of its results, one per frame analysed, each observation's `timeRange` the
/// frame's; `startAnalysis()` decodes the file once (OpenVision's video decoding) and runs every request on the
/// frames its cadence selects. The sequences end after the last frame, or all with the first error (the decoding's, or
/// a request's on a frame), which stops the analysis.
///
/// A request whose result is an observation, an optional one or an array of them gets the frame's time range on each
/// observation; requests are performed as `ImageRequestHandler(image:)` performs them on the frame.
public final class VideoProcessor: @unchecked Sendable {
    /// Which frames a request is run on.
    public enum Cadence: Sendable, Hashable {
        /// About this many frames a second: a frame when at least `1 / frameRate` seconds have passed since the last
        /// frame analysed (the first frame always).
        case frameRate(Int)
        /// A frame when at least this long has passed since the last frame analysed (the first frame always).
        case timeInterval(CMTime)
    }

    /// A request added, with where its results go.
    private struct Entry {
        let cadence: Cadence?
        /// Runs the request on a frame and yields its result stamped with the frame's time range.
        let run: @Sendable (VisionImage, Range<Duration>) async throws -> Void
        let finish: @Sendable ((any Error)?) -> Void
        /// The presentation time, in seconds, of the last frame analysed.
        var last: Double?
    }

    private let url: URL
    private let lock = NSLock()
    private var entries: [Entry] = []
    private var task: Task<Void, Never>?

    /// A processor of the video file at `videoURL`.
    public init(_ videoURL: URL) {
        url = videoURL
    }

    /// Adds `request`, run on the frames `cadence` selects (every frame when nil), and gives its results: one element
    /// per frame analysed. Add requests before `startAnalysis(of:)`; throws `VisionError` (`.invalidArgument`) once
    /// analysis has started, or for a cadence that selects nothing (a rate or interval not above zero).
    public func addRequest<T: VisionRequest>(
        _ request: T, cadence: Cadence? = nil
    ) async throws -> some AsyncSequence<T.Result, any Error> {
        switch cadence {
        case .frameRate(let rate) where rate <= 0:
            throw VisionError(.invalidArgument, "a cadence of \(rate) frames a second")
        case .timeInterval(let interval) where !(interval.isNumeric && interval.seconds > 0):
            throw VisionError(.invalidArgument, "a cadence of \(interval.seconds) s")
        default: break
        }
        let (stream, continuation) = AsyncThrowingStream<T.Result, any Error>.makeStream()
        let entry = Entry(
            cadence: cadence,
            run: { image, range in
                let result = try await ImageRequestHandler(image: image).perform(request)
                continuation.yield(Self.stamped(result, with: range))
            },
            finish: { error in continuation.finish(throwing: error) })
        try lock.withLock {
            guard task == nil else { throw VisionError(.invalidArgument, "analysis has started: add requests before") }
            entries.append(entry)
        }
        return stream
    }

    /// Starts decoding the video and running the requests, on a task of its own (it returns at once); frames outside
    /// `timeRange` (when given) are skipped. Calls after the first do nothing.
    public func startAnalysis(of timeRange: CMTimeRange? = nil) {
        lock.withLock {
            guard task == nil else { return }
            task = Task { [url] in
                var entries = self.lock.withLock { self.entries }
                let error = await Self.analyse(url, timeRange: timeRange, entries: &entries)
                for entry in entries { entry.finish(error) }
            }
        }
    }

    /// Stops the analysis: the sequences end after the frame being analysed.
    public func cancel() async {
        let running = lock.withLock { task }
        running?.cancel()
        await running?.value
    }

    /// Decodes `url` and runs each entry on the frames its cadence selects; the error that stopped it, if any.
    private static func analyse(_ url: URL, timeRange: CMTimeRange?, entries: inout [Entry]) async -> (any Error)? {
        do {
            let capture = try VideoCapture(.file(url), options: CaptureOptions())
            let fps = capture.info.fps
            let frameDuration = (1...1000).contains(fps) ? 1 / fps : 0
            var previous: Double?
            while !Task.isCancelled, let (image, timestamp) = try capture.read() {
                let time = timestamp ?? previous.map { $0 + frameDuration } ?? 0
                previous = time
                let start = CMTime(seconds: time, preferredTimescale: 600)
                if let timeRange, !timeRange.containsTime(start) { continue }
                let range = Duration.seconds(time)..<Duration.seconds(time + frameDuration)
                for index in entries.indices where due(entries[index], at: time) {
                    entries[index].last = time
                    try await entries[index].run(image, range)
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Whether `entry`'s cadence selects the frame at `time` seconds.
    private static func due(_ entry: Entry, at time: Double) -> Bool {
        guard let last = entry.last else { return true }
        // A microsecond of slack, for times rounded to the file's timescale.
        switch entry.cadence {
        case nil: return true
        case .frameRate(let rate): return time - last >= 1 / Double(rate) - 1e-6
        case .timeInterval(let interval): return time - last >= interval.seconds - 1e-6
        }
    }

    /// `result` with `range` as the frame time range of each observation in it (an observation, an optional one or
    /// an array of them); other results unchanged.
    static func stamped<R>(_ result: R, with range: Range<Duration>) -> R {
        if var observation = result as? any VisionObservation {
            observation.frameTimeRange = range
            return observation as? R ?? result
        }
        if let observations = result as? [any VisionObservation] {
            let stamped = observations.map { observation -> any VisionObservation in
                var observation = observation
                observation.frameTimeRange = range
                return observation
            }
            return stamped as? R ?? result
        }
        return result
    }
}
