import Foundation

/// A detected face, as Vision's `FaceObservation`: its box (normalised, lower-left origin,
/// relative to the region of interest), confidence, head pose estimates and, when requested,
/// landmarks.
public struct FaceObservation: VisionObservation, BoundingBoxProviding {
    public var uuid: UUID
    public var confidence: Float
    public var boundingBox: NormalizedRect
    /// Head roll in radians, counter-clockwise positive as seen in the image; from landmarks.
    public var roll: Double?
    /// Head yaw in radians, positive when the face turns towards the image's right; an estimate
    /// from landmarks.
    public var yaw: Double?
    /// Head pitch in radians; not estimated by the current detectors (nil).
    public var pitch: Double?
    /// The 68-point landmarks, when a landmarks request produced this observation.
    public var landmarks: FaceLandmarks2D?

    public init(boundingBox: NormalizedRect, confidence: Float, roll: Double? = nil, yaw: Double? = nil,
                pitch: Double? = nil, landmarks: FaceLandmarks2D? = nil, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        self.landmarks = landmarks
    }
}
