import Foundation
import OpenVision

/// A result with a bounding box (normalised, lower-left origin), as Vision's.
open class VNDetectedObjectObservation: VNObservation {
    public let boundingBox: CGRect

    /// A box to start tracking from (Vision's `init(boundingBox:)`).
    public init(boundingBox: CGRect) {
        self.boundingBox = boundingBox
        super.init(confidence: 1)
    }

    init(uuid: UUID, confidence: VNConfidence, boundingBox: NormalizedRect) {
        self.boundingBox = boundingBox.cgRect
        super.init(uuid: uuid, confidence: confidence)
    }
}
