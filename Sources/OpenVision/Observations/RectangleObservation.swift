import Foundation

/// A detected quadrilateral, as Vision's `RectangleObservation`: four corners and their
/// bounding box, normalised with a lower-left origin, relative to the region of interest.
public struct RectangleObservation: VisionObservation, QuadrilateralProviding {
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

    /// An observation from its corners (normalised, lower-left origin); `boundingBox` is their bounding rect.
    public init(
        topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint,
        bottomLeft: NormalizedPoint, confidence: Float, uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        self.boundingBox = NormalizedRect(boundingPoints: [topLeft, topRight, bottomRight, bottomLeft])
    }

    /// An axis-aligned rectangle observation covering `rect`.
    public init(boundingBox rect: NormalizedRect, confidence: Float, uuid: UUID = UUID()) {
        self.init(
            topLeft: NormalizedPoint(x: rect.minX, y: rect.maxY),
            topRight: NormalizedPoint(x: rect.maxX, y: rect.maxY),
            bottomRight: NormalizedPoint(x: rect.maxX, y: rect.minY),
            bottomLeft: NormalizedPoint(x: rect.minX, y: rect.minY),
            confidence: confidence, uuid: uuid)
    }
}
