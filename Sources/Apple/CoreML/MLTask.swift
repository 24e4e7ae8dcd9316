import Foundation

/// Core ML's `MLTaskState`: where a task is in its life.
public enum MLTaskState: Int, Sendable {
    /// Created, not resumed yet.
    case suspended = 1
    /// Running on its background queue.
    case running = 2
    /// `cancel()` was called; the task stops at its next mini-batch or example.
    case cancelling = 3
    /// Finished; its completion handler has run or is running.
    case completed = 4
    /// Stopped by an error (`error`).
    case failed = 5
}

/// Core ML's `MLTask`: a piece of work that runs in the background once `resume()` is called. Its `state` and `error`
/// may be read from any thread.
open class MLTask {
    /// A unique identifier of the task.
    public let taskIdentifier: String = UUID().uuidString
    private let lock = NSLock()
    private var currentState = MLTaskState.suspended
    private var currentError: Error?

    /// The task's state.
    public var state: MLTaskState {
        lock.lock()
        defer { lock.unlock() }
        return currentState
    }

    /// The error that stopped the task (`state == .failed`); nil otherwise.
    public var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return currentError
    }

    init() {}

    /// Sets the state (and the error of a failure); a cancelled task stays cancelling.
    func setState(_ state: MLTaskState, error: Error? = nil) {
        lock.lock()
        defer { lock.unlock() }
        if currentState == .cancelling && state == .completed { return }
        currentState = state
        if let error { currentError = error }
    }

    /// Moves a suspended task to running; false when it was resumed or cancelled before.
    private func start() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard currentState == .suspended else { return false }
        currentState = .running
        return true
    }

    /// The task's work, run once on a background queue by `resume()` (each kind of task overrides it).
    func main() {
        setState(.failed, error: MLModelError.generic("this task has no work"))
    }

    /// Starts the task on a background queue; a task already started or cancelled ignores the call.
    open func resume() {
        guard start() else { return }
        DispatchQueue.global(qos: .userInitiated).async { self.main() }
    }

    /// Asks the task to stop: it finishes at its next mini-batch or example, leaves the model as it was, and calls
    /// its completion handler with `state == .cancelling`.
    open func cancel() {
        lock.lock()
        defer { lock.unlock() }
        if currentState == .suspended || currentState == .running { currentState = .cancelling }
    }
}
