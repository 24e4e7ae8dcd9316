import Foundation

extension FaceObservation {
    /// A face's capture quality, as Vision's `FaceObservation.CaptureQuality`: a score from 0 (poor) to 1 (good) to
    /// compare captures of the same face by. OpenVision's score is composed from measured factors (sharpness, noise,
    /// exposure, size, head pose, open eyes: `DetectFaceCaptureQualityRequest`, docs/requests.md).
    public struct CaptureQuality: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The quality, 0…1: higher for sharp, well-exposed, frontal, open-eyed, large faces.
        public let score: Float
        /// The request that measured it (`DetectFaceCaptureQualityRequest`'s name and revision).
        public let originatingRequestDescriptor: String?

        /// A score (clamped to 0…1) from the request described by `originatingRequestDescriptor`.
        public init(score: Float, originatingRequestDescriptor: String? = nil) {
            self.score = score.isFinite ? min(max(score, 0), 1) : 0
            self.originatingRequestDescriptor = originatingRequestDescriptor
        }

        /// "CaptureQuality(score: 0.73)".
        public var description: String { String(format: "CaptureQuality(score: %.2f)", score) }
    }
}
