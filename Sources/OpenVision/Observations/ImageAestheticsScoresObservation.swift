import Foundation

/// An image's aesthetics scores, as Vision's `ImageAestheticsScoresObservation`: an overall score from −1 (poor) to 1
/// (good) and whether the image is a utility image (a document, screenshot, receipt or whiteboard rather than a
/// memorable photo). OpenVision's scores are composed from measured factors (`CalculateImageAestheticsScoresRequest`,
/// docs/requests.md), not learned from people's judgements as Apple's are.
public struct ImageAestheticsScoresObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// 1: the score is a formula, not a classifier's guess.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The image's overall quality, −1…1: higher for sharp, clean, well-exposed, colourful images.
    public var overallScore: Float
    /// True for utility images: text covering the image on a flat background (documents, screenshots, receipts,
    /// whiteboards).
    public var isUtility: Bool

    /// Creates the value from its fields, each as documented on its property (the score clamped to −1…1).
    public init(overallScore: Float, isUtility: Bool, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.overallScore = overallScore.isFinite ? min(max(overallScore, -1), 1) : -1
        self.isUtility = isUtility
    }
}
