import Foundation
import OpenVision

/// Vision's abstract image-registration result.
open class VNImageAlignmentObservation: VNObservation {}

/// The translation aligning two images, as Vision's.
open class VNImageTranslationAlignmentObservation: VNImageAlignmentObservation {
    /// The translation aligning the floating image with the reference, in pixels (y up, as Vision).
    public let alignmentTransform: CGAffineTransform

    init(_ o: ImageTranslationAlignmentObservation) {
        alignmentTransform = CGAffineTransform(translationX: o.tx, y: o.ty)
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}

/// The homography aligning two images, as Vision's (`warpTransform`, row-major 3 × 3).
open class VNImageHomographicAlignmentObservation: VNImageAlignmentObservation {
    /// The 3 × 3 homography mapping the floating image onto the reference, row-major (Apple's `matrix_float3x3`).
    public let warpTransform: Matrix3x3

    init(_ o: ImageHomographicAlignmentObservation) {
        warpTransform = o.warpTransform
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
