import Synchronization

/// The one-shot meeting point of `withDeadline`: the first of the operation, the timer and the caller's
/// cancellation to arrive decides the outcome; the others find it decided.
final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var decided = false
    }

    private let state = Mutex(State())

    /// Decides the race with `outcome` unless it is decided already; true when this call decided it.
    func decide(_ outcome: Result<T, any Error>) -> Bool {
        let (won, continuation) = state.withLock { s -> (Bool, CheckedContinuation<T, any Error>?) in
            guard !s.decided else { return (false, nil) }
            s.decided = true
            guard let continuation = s.continuation else {
                s.outcome = outcome
                return (true, nil)
            }
            s.continuation = nil
            return (true, continuation)
        }
        continuation?.resume(with: outcome)
        return won
    }

    /// The outcome, once decided.
    func outcome() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let early = state.withLock { s -> Result<T, any Error>? in
                if s.decided { return s.outcome }
                s.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }
    }
}

/// Runs `operation` in a task of its own and returns its value, unless `timeout` passes first: then
/// `onTimeout` runs (the caller closes the connection there) and `JobsError(.connection, "no answer …")`
/// is thrown at once, without waiting for the operation. PostgresNIO can leave a call suspended for good
/// (a statement written to a channel that closed under it is never answered), so the caller must not be
/// tied to it: the operation's task is cancelled and left to end whenever it does; a value it still
/// produces is handed to `discard` (a connection that arrived too late is closed there).
///
/// Cancelling the caller does not end the wait early: the operation keeps its deadline.
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String,
    onTimeout: @escaping @Sendable () -> Void = {},
    discard: @escaping @Sendable (T) -> Void = { _ in },
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = Race<T>()
    let work = Task {
        do {
            let value = try await operation()
            if !race.decide(.success(value)) { discard(value) }
        } catch {
            _ = race.decide(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        if Task.isCancelled { return }
        if race.decide(
            .failure(
                JobsError(.connection, "\(what): no answer within \(timeout.secondsText) s; the connection was closed"))
        ) {
            onTimeout()
            work.cancel()
        }
    }
    defer { timer.cancel() }
    return try await race.outcome()
}

extension Duration {
    /// "2", "0.5", "1.25": seconds for messages.
    var secondsText: String {
        let value = (seconds * 1000).rounded() / 1000
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
