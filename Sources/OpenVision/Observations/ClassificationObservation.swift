import Foundation

/// A label with a confidence, as Vision's `ClassificationObservation`.
public struct ClassificationObservation: VisionObservation {
    public var uuid: UUID
    /// The label ("dog", "n02099601 golden retriever", or "class17" when the model has no labels).
    public var identifier: String
    public var confidence: Float

    public init(identifier: String, confidence: Float, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.identifier = identifier
        self.confidence = confidence
    }
}
