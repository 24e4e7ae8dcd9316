/// Core ML's `MLUpdateProgressEvent`: the moments of an update at which a progress handler is called.
public struct MLUpdateProgressEvent: OptionSet, Sendable, Hashable {
    /// The bits of the events.
    public let rawValue: Int
    /// The events of `rawValue`'s bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Before the first example is used.
    public static let trainingBegin = MLUpdateProgressEvent(rawValue: 1 << 0)
    /// After each pass over the training data (a kNN update has one).
    public static let epochEnd = MLUpdateProgressEvent(rawValue: 1 << 1)
    /// After each mini-batch's optimizer step (networks only).
    public static let miniBatchEnd = MLUpdateProgressEvent(rawValue: 1 << 2)
}

/// Core ML's `MLUpdateProgressHandlers`: which events to report, what to call at each, and what to call at the end.
open class MLUpdateProgressHandlers {
    /// The events `progressHandler` is called for.
    public let interestedEvents: MLUpdateProgressEvent
    /// Called on the task's queue at each of `interestedEvents`.
    public let progressHandler: ((MLUpdateContext) -> Void)?
    /// Called on the task's queue once, when the task completes, fails or is cancelled.
    public let completionHandler: (MLUpdateContext) -> Void

    /// Handlers for `interestedEvents`.
    public init(
        forEvents interestedEvents: MLUpdateProgressEvent, progressHandler: ((MLUpdateContext) -> Void)?,
        completionHandler: @escaping (MLUpdateContext) -> Void
    ) {
        self.interestedEvents = interestedEvents
        self.progressHandler = progressHandler
        self.completionHandler = completionHandler
    }
}
