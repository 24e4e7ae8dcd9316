import Foundation
import OpenVision

/// A result with a bounding box (normalised, lower-left origin), as Vision's.
open class VNDetectedObjectObservation: VNObservation {
    /// The bounding box, normalised with a lower-left origin, relative to the request's region of interest.
    public let boundingBox: CGRect

    /// An observation of `boundingBox` (normalised, lower-left origin) with confidence 1, e.g. a box to start tracking
    /// from (Vision's `init(boundingBox:)`; subclasses that have it, such as `VNFaceObservation`, inherit it).
    public convenience init(boundingBox: CGRect) {
        self.init(
            uuid: UUID(), confidence: 1,
            boundingBox: NormalizedRect(
                x: Double(boundingBox.minX), y: Double(boundingBox.minY),
                width: Double(boundingBox.width), height: Double(boundingBox.height)))
    }

    init(uuid: UUID, confidence: VNConfidence, boundingBox: NormalizedRect) {
        self.boundingBox = boundingBox.cgRect
        super.init(uuid: uuid, confidence: confidence)
    }
}
