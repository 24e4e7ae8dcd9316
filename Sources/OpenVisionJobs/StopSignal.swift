import Synchronization

/// Set once, by a worker's `stop()`: wakes every `sleep(for:)` in progress and makes later ones return at
/// once, so a stopping worker does not sit out a reconnect backoff or a poll interval first.
final class StopSignal: Sendable {
    private struct State {
        var isSet = false
        var next = 0
        var sleepers: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Sleeps that ended (timer, cancellation) before their continuation was registered.
        var ended: Set<Int> = []
    }

    private let state = Mutex(State())

    var isSet: Bool { state.withLock { $0.isSet } }

    /// Sets the signal and wakes every sleeper.
    func set() {
        let sleepers = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.isSet = true
            defer { s.sleepers = [:] }
            return Array(s.sleepers.values)
        }
        for sleeper in sleepers { sleeper.resume() }
    }

    /// Sleeps for `duration`, until the signal is set, or until the task is cancelled, whichever comes
    /// first; true when the signal is set.
    @discardableResult
    func sleep(for duration: Duration) async -> Bool {
        let id = state.withLock { s -> Int in
            s.next += 1
            return s.next
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: duration)
            end(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.isSet || s.ended.remove(id) != nil { return true }
                    s.sleepers[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
        timer.cancel()
        return isSet
    }

    /// Waits until the signal is set (or the task is cancelled).
    func wait() async {
        while !Task.isCancelled, !(await sleep(for: .seconds(3600))) {}
    }

    private func end(_ id: Int) {
        let sleeper = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if let sleeper = s.sleepers.removeValue(forKey: id) { return sleeper }
            if !s.isSet { s.ended.insert(id) }
            return nil
        }
        sleeper?.resume()
    }
}
