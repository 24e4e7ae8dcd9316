import Foundation

/// A person, as Vision's `HumanObservation`: a box (normalised, lower-left origin, in the analysed
/// image) around the whole figure, or around head and torso when `upperBodyOnly`.
public struct HumanObservation: VisionObservation, BoundingBoxProviding {
    public var uuid: UUID
    public var confidence: Float
    public var boundingBox: NormalizedRect
    /// Whether the box covers only head and torso (the request's `upperBodyOnly`).
    public var upperBodyOnly: Bool

    public init(boundingBox: NormalizedRect, confidence: Float, upperBodyOnly: Bool, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.upperBodyOnly = upperBodyOnly
    }
}
