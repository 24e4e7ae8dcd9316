import Foundation
import OpenVision
import simd

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

/// The homography aligning two images, as Vision's.
open class VNImageHomographicAlignmentObservation: VNImageAlignmentObservation {
    /// The homography as Vision gives it: simd's column-major `matrix_float3x3` (`warpTransform[column][row]`), mapping
    /// the target image's points onto the reference's.
    public let warpTransform: matrix_float3x3

    init(_ o: ImageHomographicAlignmentObservation) {
        let m = o.warpTransform
        warpTransform = simd_float3x3(
            rows: (0..<3).map { r in SIMD3<Float>(Float(m[r, 0]), Float(m[r, 1]), Float(m[r, 2])) })
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
