import Foundation
import OpenVision

/// A face, with its landmarks when a landmarks request found them, as Vision's.
open class VNFaceObservation: VNDetectedObjectObservation {
    public let landmarks: VNFaceLandmarks2D?
    /// Head roll in radians (counter-clockwise as seen), nil when not measured; Apple's `NSNumber?`.
    public let roll: NSNumber?
    /// Head yaw in radians (positive when the face turns towards the image's right), nil when not measured.
    public let yaw: NSNumber?
    /// Head pitch in radians (positive when the face looks up): revision 3 landmarks only.
    public let pitch: NSNumber?
    let native: FaceObservation

    init(_ o: FaceObservation) {
        native = o
        landmarks = o.landmarks.map(VNFaceLandmarks2D.init)
        roll = o.roll.map { NSNumber(value: $0) }
        yaw = o.yaw.map { NSNumber(value: $0) }
        pitch = o.pitch.map { NSNumber(value: $0) }
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
