import Foundation
import OpenVision

/// An image's aesthetics scores, as Vision's (OpenVision's `ImageAestheticsScoresObservation`).
open class VNImageAestheticsScoresObservation: VNObservation {
    /// The image's overall score, −1…1 (higher is better).
    public let overallScore: Float
    /// True for utility images: documents, screenshots, receipts, whiteboards.
    public let isUtility: Bool
    let native: ImageAestheticsScoresObservation

    init(_ o: ImageAestheticsScoresObservation) {
        native = o
        overallScore = o.overallScore
        isUtility = o.isUtility
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
