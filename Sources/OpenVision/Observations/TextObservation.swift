import Foundation

/// A region of text found by `DetectTextRectanglesRequest`, as Vision's `TextObservation`: a line's
/// quadrilateral (axis-aligned here) and, when asked for, each character's box; nothing is read.
/// Normalised with a lower-left origin, relative to the request's region of interest.
public struct TextObservation: VisionObservation, QuadrilateralProviding {
    public var uuid: UUID
    public var confidence: Float
    public var topLeft: NormalizedPoint
    public var topRight: NormalizedPoint
    public var bottomRight: NormalizedPoint
    public var bottomLeft: NormalizedPoint
    public var boundingBox: NormalizedRect
    /// One box per character, left to right; nil unless `reportCharacterBoxes` was set.
    public var characterBoxes: [RectangleObservation]?

    /// An axis-aligned text region covering `rect`.
    public init(boundingBox rect: NormalizedRect, characterBoxes: [RectangleObservation]?, confidence: Float,
                uuid: UUID = UUID()) {
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
