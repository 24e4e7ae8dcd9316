import Foundation

/// A region of text found by `DetectTextRectanglesRequest`, as Vision's `TextObservation`: a line's
/// quadrilateral (axis-aligned here) and, when asked for, each character's box; nothing is read.
/// Normalised with a lower-left origin, relative to the request's region of interest.
public struct TextObservation: VisionObservation, QuadrilateralProviding {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The top-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topLeft: NormalizedPoint
    /// The top-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topRight: NormalizedPoint
    /// The bottom-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomRight: NormalizedPoint
    /// The bottom-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomLeft: NormalizedPoint
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect
    /// One box per character, left to right; nil unless `reportCharacterBoxes` was set.
    public var characterBoxes: [RectangleObservation]?

    /// An axis-aligned text region covering `rect`.
    public init(
        boundingBox rect: NormalizedRect, characterBoxes: [RectangleObservation]?, confidence: Float,
        uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.topLeft = NormalizedPoint(x: rect.minX, y: rect.maxY)
        self.topRight = NormalizedPoint(x: rect.maxX, y: rect.maxY)
        self.bottomRight = NormalizedPoint(x: rect.maxX, y: rect.minY)
        self.bottomLeft = NormalizedPoint(x: rect.minX, y: rect.minY)
        self.boundingBox = rect
        self.characterBoxes = characterBoxes
    }
}
