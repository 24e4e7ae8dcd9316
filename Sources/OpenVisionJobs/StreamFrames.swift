import Foundation
import Synchronization

/// Where a stream job's analysed frames go: rows of `openvision_stream_frames` (`openvision jobs
/// results --stream ID` prints them), written on the stream's own connection.
///
/// Frames arriving while the database is unreachable are dropped and counted (a live source does
/// not wait); one reconnect is tried per frame after a backoff. Used from the stream's task.
public final class StreamFrames: @unchecked Sendable {
    /// The stream job whose frames these are.
    public let job: Int64
    private let worker: String
    private let session: DatabaseSession
    private let counters = Mutex<(written: Int, dropped: Int)>((0, 0))
    private var retryAt = ContinuousClock.now

    init(job: Int64, worker: String, session: DatabaseSession) {
        self.job = job
        self.worker = worker
        self.session = session
    }

    /// Stores frame `index`'s result (JSON text).
    public func append(frame index: Int, result: String) async {
        guard ContinuousClock.now >= retryAt else {
            counters.withLock { $0.dropped += 1 }
            return
        }
        do {
            try await session.once { try await $0.appendFrame(job: job, worker: worker, frame: index, result: result) }
            counters.withLock { $0.written += 1 }
        } catch {
            counters.withLock { $0.dropped += 1 }
            retryAt = ContinuousClock.now + .seconds(1)
        }
    }

    /// Closes the frames' connection (the worker, once the stream's task has returned).
    func close() async { await session.close() }

    /// Frames stored and dropped so far.
    public var written: Int { counters.withLock { $0.written } }
    /// Frames dropped while the database was unreachable.
    public var dropped: Int { counters.withLock { $0.dropped } }
}
