import Foundation
import Synchronization

/// Runs requests on successive frames of one sequence, as Vision's `SequenceRequestHandler`:
/// unlike `ImageRequestHandler` it lives across frames, counting them and keeping each
/// request kind's latest results for work that builds on the previous frame (tracking).
///
/// Stateful requests (`StatefulRequest`: optical flow and registration tracking, trajectories) keep
/// their previous frame themselves: perform the same request instance on each frame, in order.
/// Give each frame its `frameTime` (the source's timestamp) when it has one; trajectories are timed
/// with it.
public final class SequenceRequestHandler: Sendable {
    private struct State {
        var frames = 0
        var latest: [ObjectIdentifier: any Sendable] = [:]
    }

    private let state = Mutex(State())

    /// A handler for a new sequence: no frames seen, no results kept.
    public init() {}

    /// Frames performed so far.
    public var frameCount: Int { state.withLock { $0.frames } }

    /// The latest successful results of requests of type `R`, from any earlier frame.
    public func latestResults<R: VisionRequest>(of type: R.Type) -> R.Result? {
        state.withLock { $0.latest[ObjectIdentifier(type)] as? R.Result }
    }

    /// Runs `requests` on one frame (concurrently where independent) and returns each outcome.
    public func perform(
        _ requests: [any VisionRequest], on image: VisionImage,
        frameTime: Duration? = nil
    ) async -> [VisionRequestOutcome] {
        let outcomes = await ImageRequestHandler(image: image, frameTime: frameTime).performAll(requests)
        record(outcomes)
        return outcomes
    }

    /// Runs one request on one frame.
    public func perform<R: VisionRequest>(
        _ request: R, on image: VisionImage,
        frameTime: Duration? = nil
    ) async throws(VisionError) -> R.Result {
        let result = try await ImageRequestHandler(image: image, frameTime: frameTime).perform(request)
        state.withLock {
            $0.frames += 1
            $0.latest[ObjectIdentifier(R.self)] = result
        }
        return result
    }

    private func record(_ outcomes: [VisionRequestOutcome]) {
        state.withLock { state in
            state.frames += 1
            for outcome in outcomes {
                if case .success(let value) = outcome.result {
                    state.latest[ObjectIdentifier(type(of: outcome.request))] = value
                }
            }
        }
    }
}
