import Foundation
import OpenVision

/// Four corners (normalised, lower-left origin) and their bounding box, as Vision's.
open class VNRectangleObservation: VNDetectedObjectObservation {
    /// The top-left corner as seen upright, normalised with a lower-left origin.
    public let topLeft: CGPoint
    /// The top-right corner as seen upright, normalised with a lower-left origin.
    public let topRight: CGPoint
    /// The bottom-right corner as seen upright, normalised with a lower-left origin.
    public let bottomRight: CGPoint
    /// The bottom-left corner as seen upright, normalised with a lower-left origin.
    public let bottomLeft: CGPoint

    init<Q: QuadrilateralProviding & VisionObservation>(_ o: Q) {
        topLeft = o.topLeft.cgPoint
        topRight = o.topRight.cgPoint
        bottomRight = o.bottomRight.cgPoint
        bottomLeft = o.bottomLeft.cgPoint
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
