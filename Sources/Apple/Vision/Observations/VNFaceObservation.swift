import Foundation
import OpenVision

/// A face, with its landmarks when a landmarks request found them, as Vision's.
open class VNFaceObservation: VNDetectedObjectObservation {
    /// The face's landmarks (`VNDetectFaceLandmarksRequest`); nil from a face-rectangles request.
    public let landmarks: VNFaceLandmarks2D?
    /// Head roll in radians (counter-clockwise as seen), nil when not measured; Apple's `NSNumber?`.
    public let roll: NSNumber?
    /// Head yaw in radians (positive when the face turns towards the image's right), nil when not measured.
    public let yaw: NSNumber?
    /// Head pitch in radians (positive when the face looks up): revision 3 landmarks only.
    public let pitch: NSNumber?
    /// The capture quality, 0…1 (`VNDetectFaceCaptureQualityRequest`); nil from the other face requests. Apple's
    /// Swift overlay spells it `Float?`, as here.
    public let faceCaptureQuality: Float?
    let native: FaceObservation

    /// A face given by its box (normalised, lower-left origin) and pose, e.g. for
    /// `VNDetectFaceLandmarksRequest.inputFaceObservations` (Apple's `init(requestRevision:boundingBox:roll:yaw:pitch:)`;
    /// the revision is not used). A given roll turns the region the face mesh reads.
    public convenience init(
        requestRevision: Int, boundingBox: CGRect, roll: NSNumber?, yaw: NSNumber?, pitch: NSNumber? = nil
    ) {
        self.init(
            FaceObservation(
                boundingBox: NormalizedRect(
                    x: Double(boundingBox.minX), y: Double(boundingBox.minY),
                    width: Double(boundingBox.width), height: Double(boundingBox.height)),
                confidence: 1, roll: roll?.doubleValue, yaw: yaw?.doubleValue, pitch: pitch?.doubleValue))
    }

    /// A face given only by its box (what `VNFaceObservation(boundingBox:)` makes): no landmarks, no pose.
    override init(uuid: UUID, confidence: VNConfidence, boundingBox: NormalizedRect) {
        native = FaceObservation(boundingBox: boundingBox, confidence: confidence)
        landmarks = nil
        roll = nil
        yaw = nil
        pitch = nil
        faceCaptureQuality = nil
        super.init(uuid: uuid, confidence: confidence, boundingBox: boundingBox)
    }

    init(_ o: FaceObservation) {
        native = o
        landmarks = o.landmarks.map(VNFaceLandmarks2D.init)
        roll = o.roll.map { NSNumber(value: $0) }
        yaw = o.yaw.map { NSNumber(value: $0) }
        pitch = o.pitch.map { NSNumber(value: $0) }
        faceCaptureQuality = o.captureQuality?.score
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
