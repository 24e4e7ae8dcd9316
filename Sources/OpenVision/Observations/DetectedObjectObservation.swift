import Foundation

/// An object's box without labels, as Vision's `DetectedObjectObservation`: what `TrackObjectRequest`
/// starts from and returns (normalised, lower-left origin). The same `uuid` follows a tracked object
/// from frame to frame.
public struct DetectedObjectObservation: VisionObservation, BoundingBoxProviding {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(boundingBox: NormalizedRect, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
    }

    /// The box of a detection (keeps its uuid and confidence), to start tracking it.
    public init(_ object: RecognizedObjectObservation) {
        self.init(boundingBox: object.boundingBox, confidence: object.confidence, uuid: object.uuid)
    }
}
