import Foundation
import OpenVision

/// Four corners (normalised, lower-left origin) and their bounding box, as Vision's.
open class VNRectangleObservation: VNDetectedObjectObservation {
    public let topLeft: CGPoint
    public let topRight: CGPoint
    public let bottomRight: CGPoint
    public let bottomLeft: CGPoint

    init<Q: QuadrilateralProviding & VisionObservation>(_ o: Q) {
        topLeft = o.topLeft.cgPoint
        topRight = o.topRight.cgPoint
        bottomRight = o.bottomRight.cgPoint
        bottomLeft = o.bottomLeft.cgPoint
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
