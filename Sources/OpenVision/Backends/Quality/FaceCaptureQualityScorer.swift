import Foundation

/// Face capture quality composed from measured factors (docs/requests.md, "Face capture quality"): the product of
/// six factors in 0…1, each rising with one property of the capture,
///
///     q = sharpness · noise · exposure · size · pose · eyes
///
/// - sharpness `S / (S + S₀)`: S is the noise-compensated Laplacian variance of the face box resampled to
///   `workWidth` pixels wide (`ImageQualityMeasures.sharpness`), so small faces enlarged lose sharpness too;
/// - noise `1 / (1 + (σ / σ₀)²)`: σ is the weak-texture patch noise estimate on the same crop;
/// - exposure `(1 − exp(−(m / m₀)²)) · (1 − b)²`: m the crop's mean luminance (0…1), b its share of clipped
///   highlights;
/// - size `w / (w + w₀)`: w the face box's width in image pixels;
/// - pose `exp(−(yaw² + pitch²) / a²)`: pitch the face mesh's, yaw the mean of the mesh's and of the nose's offset
///   between the cheeks (`noseOffsetYaw`, what the image shows);
/// - eyes `1 / (1 + (e₀ / e)⁴)`: e the mean eye aspect ratio of the mesh's eye contours (lid gap over eye width).
/// pose and eyes are weighed by the mesh model's presence score p (how sure it is that a face is there):
/// pose · eyes = p · (1 − w + w · pose)(1 − w + w · eyes), w = clamp((p − 0.3) / 0.4, 0, 1).
/// The constants were calibrated on dlib's example faces and the shared photos (`scripts/bench facequality`).
package enum FaceCaptureQualityScorer {
    /// The crop's working width: faces are compared at one scale.
    static let workWidth = 112
    /// Half-way sharpness S₀ (gray levels², at `workWidth`).
    static let sharpnessHalf = 60.0
    /// Face width w₀ (pixels) at which the size factor is ½.
    static let sizeHalf = 24.0
    /// Pose scale a (radians).
    static let poseScale = 0.6
    /// Eye aspect ratio e₀ at which the eye factor is ½.
    static let eyeHalf = 0.12
    /// pose · eyes when the mesh model cannot run on the face.
    static let unseenPose = 0.25

    /// The head's turn seen in the image: the nose tip's (mesh point 1) horizontal place between the cheeks at the
    /// ears' level (234 and 454), as an angle: asin(2r − 1) for r its share of the way (0 frontal; positive towards
    /// the image's right).
    static func noseOffsetYaw(_ mesh: [(x: Double, y: Double, z: Double)]) -> Double {
        let span = mesh[454].x - mesh[234].x
        guard abs(span) > 1e-9 else { return 0 }
        return asin(min(max(2 * (mesh[1].x - mesh[234].x) / span - 1, -1), 1))
    }

    /// The factors of one face, each 0…1, and their product.
    package struct Factors: Sendable, Hashable {
        package var sharpness, noise, exposure, size, pose, eyes: Double
        /// The yaw the pose factor used (radians; 0 when the mesh model does not see the face).
        package var yaw = 0.0
        /// The mesh's pitch (radians), presence score and mean eye aspect ratio (0 when the mesh model did not run):
        /// what the pose and eyes factors were computed from, for calibration (`openvision-bench facequality`).
        package var pitch = 0.0, presence = 0.0, eyeAspectRatio = 0.0
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

    /// What the face mesh says of a face: its presence score (0…1), head pose (radians) and eye aspect ratio.
    struct MeshView {
        var presence, yaw, pitch, eyeAspectRatio: Double
    }

    /// The factors for a face whose box crop measured `m`, `width` pixels wide in the image, with what the mesh says
    /// (nil: the mesh model did not run). The mesh factor is presence · (1 − w + w · pose · eyes) with w rising from 0
    /// at presence 0.3 to 1 at 0.7: pose and eyes count as far as the model sees a face.
    static func factors(_ m: ImageQualityMeasures, width: Double, mesh: MeshView?) -> Factors {
        let s = m.sharpness
        var f = Factors(
            sharpness: s / (s + sharpnessHalf),
            noise: m.noiseFactor,
            exposure: m.exposureFactor,
            size: width / (width + sizeHalf), pose: 1, eyes: 1)
        guard let mesh else {
            f.pose = unseenPose
            return f
        }
        let pose = exp(-(mesh.yaw * mesh.yaw + mesh.pitch * mesh.pitch) / (poseScale * poseScale))
        let e = mesh.eyeAspectRatio
        let eyes = e > 0 ? 1 / (1 + pow(eyeHalf / e, 4)) : 0
        let w = min(max((mesh.presence - 0.3) / 0.4, 0), 1)
        f.pose = mesh.presence * (1 - w + w * pose)
        f.eyes = 1 - w + w * eyes
        f.yaw = mesh.yaw
        f.pitch = mesh.pitch
        f.presence = mesh.presence
        f.eyeAspectRatio = e
        return f
    }
}
