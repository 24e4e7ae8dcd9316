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
        var waiting: [(ticket: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextTicket = 0
        /// Tickets cancelled before they were in line (their acquire then gives up at once).
        var cancelledTickets: Set<Int> = []
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
            // Not `workers + queueLength`, which overflows for limits near Int.max.
            guard s.admitted < workers || s.admitted - workers < queueLength else { return false }
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
    /// analyses ever run. Nil, without running `body`, when the task is cancelled while it waits: a
    /// request past its deadline gives up its place in line instead of taking a worker.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T? {
        guard await acquire() else { return nil }
        defer { release() }
        return await body()
    }

    /// True once a slot is taken; false when the task was cancelled first.
    private func acquire() async -> Bool {
        if Task.isCancelled { return false }
        let ticket = state.withLock { s -> Int in
            s.nextTicket += 1
            return s.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                enum Start { case now, waiting, cancelled }
                let start = state.withLock { s -> Start in
                    if s.cancelledTickets.remove(ticket) != nil { return .cancelled }
                    if s.running < workers {
                        s.running += 1
                        return .now
                    }
                    s.waiting.append((ticket, continuation))
                    return .waiting
                }
                switch start {
                case .now: continuation.resume(returning: true)
                case .cancelled: continuation.resume(returning: false)
                case .waiting: metrics.queueDepth.increment()
                }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Bool, Never>? in
                guard let index = s.waiting.firstIndex(where: { $0.ticket == ticket }) else {
                    // Not in line yet (or already given a slot, which it then holds and releases).
                    s.cancelledTickets.insert(ticket)
                    return nil
                }
                return s.waiting.remove(at: index).continuation
            }
            if let waiter {
                metrics.queueDepth.decrement()
                waiter.resume(returning: false)
            }
        }
    }

    private func release() {
        // The slot passes straight to the first waiter, if any (running stays the same).
        let next = state.withLock { s -> CheckedContinuation<Bool, Never>? in
            if s.waiting.isEmpty {
                s.running -= 1
                return nil
            }
            return s.waiting.removeFirst().continuation
        }
        if let next {
            metrics.queueDepth.decrement()
            next.resume(returning: true)
        }
    }
}
