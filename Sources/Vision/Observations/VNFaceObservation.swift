import OpenVision

/// A face, with its landmarks when a landmarks request found them, as Vision's.
open class VNFaceObservation: VNDetectedObjectObservation {
    public let landmarks: VNFaceLandmarks2D?
    /// Radians; nil when not measured (Apple's `NSNumber?`).
    public let roll: Double?
    public let yaw: Double?
    public let pitch: Double?
    let native: FaceObservation

    init(_ o: FaceObservation) {
        native = o
        landmarks = o.landmarks.map(VNFaceLandmarks2D.init)
        roll = o.roll
        yaw = o.yaw
        pitch = o.pitch
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
