import Foundation
import OpenVision

/// Vision's abstract image-registration result.
open class VNImageAlignmentObservation: VNObservation {}

/// The translation aligning two images, as Vision's.
open class VNImageTranslationAlignmentObservation: VNImageAlignmentObservation {
    public let alignmentTransform: CGAffineTransform

    init(_ o: ImageTranslationAlignmentObservation) {
        alignmentTransform = CGAffineTransform(translationX: o.tx, y: o.ty)
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}

/// The homography aligning two images, as Vision's (`warpTransform`, row-major 3 × 3).
open class VNImageHomographicAlignmentObservation: VNImageAlignmentObservation {
    public let warpTransform: Matrix3x3

    init(_ o: ImageHomographicAlignmentObservation) {
        warpTransform = o.warpTransform
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
