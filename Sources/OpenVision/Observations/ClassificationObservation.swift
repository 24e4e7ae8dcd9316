import Foundation

/// A label with a confidence, as Vision's `ClassificationObservation`.
public struct ClassificationObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// The label ("dog", "n02099601 golden retriever", or "class17" when the model has no labels).
    public var identifier: String
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(identifier: String, confidence: Float, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.identifier = identifier
        self.confidence = confidence
    }
}
