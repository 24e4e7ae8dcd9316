import Foundation
import Synchronization

/// Bounded concurrency with a bounded queue: at most `workers + queueLength` requests are admitted
/// at once (reading their body, waiting, or running) and at most `workers` run an analysis; a request
/// beyond that is not admitted (the server answers 503 with `Retry-After`), so memory stays bounded
/// by the admitted requests' bodies whatever the load. Waiting requests get a worker in arrival order.
final class WorkQueue: Sendable {
    private struct State {
        var admitted = 0
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let workers: Int
    let queueLength: Int
    private let state = Mutex(State())
    private let metrics: ServerMetrics

    init(workers: Int, queueLength: Int, metrics: ServerMetrics) {
        self.workers = max(1, workers)
        self.queueLength = max(0, queueLength)
        self.metrics = metrics
    }

    /// Admits one request if there is room; false means the queue is full. Balance with `leave()`.
    func admit() -> Bool {
        let ok = state.withLock { s in
            guard s.admitted < workers + queueLength else { return false }
            s.admitted += 1
            return true
        }
        if ok { metrics.inFlight.increment() }
        return ok
    }

    /// An admitted request is done (answered, or given up).
    func leave() {
        state.withLock { $0.admitted -= 1 }
        metrics.inFlight.decrement()
    }

    /// Runs `body` on a worker slot, waiting in line for one. The slot is held until `body` returns,
    /// even when the caller has stopped waiting for it (a timed-out request), so at most `workers`
    /// analyses ever run.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.running < workers {
                    s.running += 1
                    return true
                }
                s.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() } else { metrics.queueDepth.increment() }
        }
    }

    private func release() {
        // The slot passes straight to the first waiter, if any (running stays the same).
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiting.isEmpty {
                s.running -= 1
                return nil
            }
            return s.waiting.removeFirst()
        }
        if let next {
            metrics.queueDepth.decrement()
            next.resume()
        }
    }
}
