import Foundation

/// A detected face, as Vision's `FaceObservation`: its box (normalised, lower-left origin,
/// relative to the region of interest), confidence, head pose estimates and, when requested,
/// landmarks, and its capture quality.
public struct FaceObservation: VisionObservation, BoundingBoxProviding {
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
    /// Head roll in radians, counter-clockwise positive as seen in the image; from landmarks.
    public var roll: Double?
    /// Head yaw in radians, positive when the face turns towards the image's right; from the face mesh's 3D points
    /// (`DetectFaceLandmarksRequest` revision 3), or an estimate from dlib's 2D points.
    public var yaw: Double?
    /// Head pitch in radians, positive when the face looks up; from the face mesh's 3D points (revision 3 landmarks
    /// only, else nil). See `FaceMeshPipeline.headPose`.
    public var pitch: Double?
    /// The landmarks (Vision's 76 or 65 points, dlib's 68, or BlazeFace's 6), when a request produced them.
    public var landmarks: FaceLandmarks2D?
    /// How well the face is captured, from `DetectFaceCaptureQualityRequest`; nil from the other face requests.
    public var captureQuality: CaptureQuality?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        boundingBox: NormalizedRect, confidence: Float, roll: Double? = nil, yaw: Double? = nil,
        pitch: Double? = nil, landmarks: FaceLandmarks2D? = nil, captureQuality: CaptureQuality? = nil,
        uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.boundingBox = boundingBox
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        self.landmarks = landmarks
        self.captureQuality = captureQuality
    }
}
