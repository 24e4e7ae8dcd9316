import Foundation

/// The translation aligning two images, as Vision's `ImageTranslationAlignmentObservation`: from
/// `TranslationalImageRegistrationRequest` (the target image onto the handler's image) and
/// `TrackTranslationalImageRegistrationRequest` (each frame onto the previous one).
///
/// Units are pixels of the analysed images, with a lower-left origin and y up (Vision's and Core
/// Image's convention): moving the target image by `alignmentTransform` lays its content over the
/// reference's. A target whose content sits 5 px further right and 3 px lower than in the reference
/// gives tx = −5, ty = +3.
public struct ImageTranslationAlignmentObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// The phase-correlation peak (0...1): near 1 for a clean shift, low for a weak or ambiguous one.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// Horizontal translation in pixels (positive: right).
    public var tx: Double
    /// Vertical translation in pixels (positive: up).
    public var ty: Double

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(tx: Double, ty: Double, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.tx = tx
        self.ty = ty
    }

    /// The translation as an affine transform (lower-left pixel coordinates, y up).
    public var alignmentTransform: AffineTransform { AffineTransform(translationByX: tx, byY: ty) }
}
