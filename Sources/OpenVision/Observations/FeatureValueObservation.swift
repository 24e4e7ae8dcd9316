import Foundation

/// A raw model output, as Vision's `CoreMLFeatureValueObservation`.
public struct FeatureValueObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The output's name in the model.
    public var featureName: String
    /// The output's dimensions, outermost first.
    public var shape: [Int]
    /// The output's values, row-major (`values.count` is the product of `shape`).
    public var values: [Float]

    /// The observation of `tensor`: its name, shape and values (confidence 1).
    public init(tensor: Tensor, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = 1
        self.featureName = tensor.name
        self.shape = tensor.shape
        self.values = tensor.scalars
    }
}

/// Vision's name for a raw model output.
public typealias CoreMLFeatureValueObservation = FeatureValueObservation
