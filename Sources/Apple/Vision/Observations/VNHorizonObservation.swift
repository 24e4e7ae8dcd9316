import Foundation
import OpenVision

/// The horizon's angle and the transform that levels it, as Vision's.
open class VNHorizonObservation: VNObservation {
    /// Radians, counter-clockwise.
    public let angle: CGFloat
    /// The rotation that levels the image (normalised coordinates).
    public let transform: CGAffineTransform

    init(_ o: HorizonObservation) {
        angle = o.radians
        transform = CGAffineTransform(rotationAngle: -o.radians)
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
