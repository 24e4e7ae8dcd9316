import Foundation

/// An object's box without labels, as Vision's `DetectedObjectObservation`: what `TrackObjectRequest`
/// starts from and returns (normalised, lower-left origin). The same `uuid` follows a tracked object
/// from frame to frame.
public struct DetectedObjectObservation: VisionObservation, BoundingBoxProviding {
    public var uuid: UUID
    public var confidence: Float
    public var boundingBox: NormalizedRect

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
