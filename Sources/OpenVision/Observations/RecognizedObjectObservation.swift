import Foundation

/// A detected object, as Vision's `RecognizedObjectObservation`: a box (normalised, lower-left
/// origin, in the analysed image) and labels sorted by confidence, highest first.
public struct RecognizedObjectObservation: VisionObservation, BoundingBoxProviding {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// The top label's confidence.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect
    /// Labels, most confident first; `labels[0]` is the detection's class.
    public var labels: [ClassificationObservation]

    /// An object in `boundingBox` with `labels`, most confident first; its confidence is the first label's (0 if none).
    public init(boundingBox: NormalizedRect, labels: [ClassificationObservation], uuid: UUID = UUID()) {
        self.uuid = uuid
        self.boundingBox = boundingBox
        self.labels = labels
        self.confidence = labels.first?.confidence ?? 0
    }
}
