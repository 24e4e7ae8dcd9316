import Foundation

/// Face capture quality composed from measured factors (docs/requests.md, "Face capture quality"): the product of
/// six factors in 0…1, each rising with one property of the capture,
///
///     q = sharpness · noise · exposure · size · pose · eyes
///
/// - sharpness `S / (S + S₀)`: S is the noise-compensated Laplacian variance of the face box resampled to
///   `workWidth` pixels wide (`ImageQualityMeasures.sharpness`), so small faces enlarged lose sharpness too;
/// - noise `1 / (1 + (σ / σ₀)²)`: σ is Immerkær's noise estimate on the same crop;
/// - exposure `(1 − exp(−(m / m₀)²)) · (1 − b)²`: m the crop's mean luminance (0…1), b its share of clipped
///   highlights;
/// - size `w / (w + w₀)`: w the face box's width in image pixels;
/// - pose `exp(−(yaw² + pitch²) / a²)`: the face mesh's head pose;
/// - eyes `1 / (1 + (e₀ / e)⁴)`: e the mean eye aspect ratio of the mesh's eye contours (lid gap over eye width).
/// A face the mesh model does not see as one (presence under 0.5) gets `unseenPose` for pose · eyes.
/// The constants were calibrated on dlib's example faces and the shared photos (`scripts/bench facequality`).
package enum FaceCaptureQualityScorer {
    /// The crop's working width: faces are compared at one scale.
    static let workWidth = 112
    /// Half-way sharpness S₀ (gray levels², at `workWidth`).
    static let sharpnessHalf = 60.0
    /// Noise σ₀ at which the noise factor is ½ (gray levels).
    static let noiseHalf = 6.0
    /// Exposure scale m₀ (mean luminance, 0…1).
    static let exposureScale = 0.3
    /// Face width w₀ (pixels) at which the size factor is ½.
    static let sizeHalf = 24.0
    /// Pose scale a (radians).
    static let poseScale = 0.6
    /// Eye aspect ratio e₀ at which the eye factor is ½.
    static let eyeHalf = 0.12
    /// pose · eyes for a face the mesh model does not see.
    static let unseenPose = 0.25

    /// The factors of one face, each 0…1, and their product.
    package struct Factors: Sendable, Hashable {
        package var sharpness, noise, exposure, size, pose, eyes: Double
        package var score: Double { sharpness * noise * exposure * size * pose * eyes }
    }

    /// The eye aspect ratio of the mesh (468 points, image pixels): for each eye the two lid gaps over twice the
    /// corner-to-corner width (MediaPipe indices: right eye 33–133 with lids 160/144 and 158/153, left eye 362–263
    /// with 385/380 and 387/373), averaged over the eyes.
    static func eyeAspectRatio(_ mesh: [(x: Double, y: Double, z: Double)]) -> Double {
        func d(_ a: Int, _ b: Int) -> Double { hypot(mesh[a].x - mesh[b].x, mesh[a].y - mesh[b].y) }
        let right = (d(160, 144) + d(158, 153)) / max(2 * d(33, 133), 1e-9)
        let left = (d(385, 380) + d(387, 373)) / max(2 * d(362, 263), 1e-9)
        return (right + left) / 2
    }

    /// The factors for a face whose box crop measured `m`, `width` pixels wide in the image, with the mesh's pose and
    /// eye aspect ratio (nil when the mesh model does not see a face).
    static func factors(
        _ m: ImageQualityMeasures, width: Double, pose: (yaw: Double, pitch: Double)?, eyeAspectRatio: Double?
    ) -> Factors {
        let s = m.sharpness
        let luminance = m.mean / 255
        var f = Factors(
            sharpness: s / (s + sharpnessHalf),
            noise: 1 / (1 + pow(m.noise / noiseHalf, 2)),
            exposure: (1 - exp(-pow(luminance / exposureScale, 2))) * pow(1 - m.bright, 2),
            size: width / (width + sizeHalf), pose: 1, eyes: 1)
        if let pose, let e = eyeAspectRatio {
            f.pose = exp(-(pose.yaw * pose.yaw + pose.pitch * pose.pitch) / (poseScale * poseScale))
            f.eyes = e > 0 ? 1 / (1 + pow(eyeHalf / e, 4)) : 0
        } else {
            f.pose = unseenPose
        }
        return f
    }
}
