import Foundation

/// A person, as Vision's `HumanObservation`: a box (normalised, lower-left origin, in the analysed
/// image) around the whole figure, or around head and torso when `upperBodyOnly`.
public struct HumanObservation: VisionObservation, BoundingBoxProviding {
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
    /// Whether the box covers only head and torso (the request's `upperBodyOnly`).
    public var upperBodyOnly: Bool

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(boundingBox: NormalizedRect, confidence: Float, upperBodyOnly: Bool, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.upperBodyOnly = upperBodyOnly
    }
}
