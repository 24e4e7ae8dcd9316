import Foundation

/// The result of the saliency requests, as Vision's `SaliencyImageObservation`: a heat map (68 × 68
/// Float32 values in 0...1, row-major, top row first, stretched over the analysed region) and the
/// salient regions as rectangles (normalised, lower-left origin, most confident first).
public struct SaliencyImageObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The heat map: 1 channel, 0 (not salient) ... 1 (most salient); all zero for a flat image.
    public var heatMap: PixelBufferObservation
    /// Bounding boxes of the salient regions; empty when nothing stands out.
    public var salientObjects: [RectangleObservation]

    /// The heat map's `featureName` for attention-based saliency.
    public static let attentionFeatureName = "attentionSaliency"
    /// The heat map's `featureName` for objectness-based saliency.
    public static let objectnessFeatureName = "objectnessSaliency"

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        heatMap: PixelBufferObservation, salientObjects: [RectangleObservation], confidence: Float = 1,
        uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.heatMap = heatMap
        self.salientObjects = salientObjects
    }
}
