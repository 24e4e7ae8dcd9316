import Foundation

/// One connection of a worker, opened on first use and again after it is lost, with a backoff.
///
/// Used from one task at a time (each worker slot, the heartbeat and each stream's frame writer own
/// one). A transient error (`JobsError.isTransient`: the connection was lost or refused, a statement got
/// no answer by its deadline, the server is shutting down or out of connections) drops the connection;
/// `persistently` then waits 0.1 s, doubling to `maxBackoff` with ±25 % jitter, reconnects and tries the
/// statement again. Its lines go through the worker's `LogLimiter`.
final class DatabaseSession: @unchecked Sendable {
    private let url: DatabaseURL
    private let maxBackoff: Duration
    private let log: LogLimiter
    private let name: String
    private let synchronousCommit: Bool
    private var store: JobStore?
    private var failing = false

    init(url: DatabaseURL, name: String, maxBackoff: Duration, synchronousCommit: Bool = true, log: LogLimiter) {
        self.url = url
        self.name = name
        self.synchronousCommit = synchronousCommit
        self.maxBackoff = maxBackoff
        self.log = log
    }

    /// Runs `body` once on the connection, connecting first if needed.
    func once<T>(_ body: (JobStore) async throws -> T) async throws -> T {
        do {
            if store?.isClosed ?? true {
                // A connection closed while idle (a database restart between statements) is replaced quietly
                // but for one line; one that fails a statement is reported by `persistently`.
                let lost = store != nil && !failing
                await store?.close()
                store = nil
                let fresh = try await JobStore.connect(url)
                store = fresh
                if !synchronousCommit { try await fresh.setSynchronousCommit(false) }
                if lost { log("connection lost while idle", "\(name): connection lost while idle; reconnected") }
            }
            let value = try await body(store!)
            if failing {
                failing = false
                log("database back", "\(name): database back")
            }
            return value
        } catch {
            let mapped = JobsError(error)
            if mapped.isTransient {
                await store?.close()
                store = nil
            }
            throw mapped
        }
    }

    /// Runs `body`, reconnecting and retrying after transient errors until it succeeds, a non-transient
    /// error is thrown, or `giveUp` returns true (then throws the last error). The waits between attempts
    /// end early when `stop` is set (`giveUp` should then say so).
    func persistently<T>(
        giveUp: () -> Bool = { false }, wakingOn stop: StopSignal? = nil,
        _ body: (JobStore) async throws -> T
    ) async throws -> T {
        var delay = Duration.milliseconds(100)
        while true {
            do {
                return try await once(body)
            } catch let error as JobsError where error.isTransient {
                if !failing {
                    failing = true
                    log("database unavailable", "\(name): database unavailable (\(error.message)); reconnecting")
                }
                if giveUp() { throw error }
                let wait = delay * Double.random(in: 0.75...1.25)
                if let stop { await stop.sleep(for: wait) } else { try await Task.sleep(for: wait) }
                if giveUp() { throw error }
                delay = min(delay * 2, maxBackoff)
            }
        }
    }

    func close() async {
        await store?.close()
        store = nil
    }
}
