import Foundation

/// The outlines found by `DetectContoursRequest`, as Vision's `ContoursObservation`: a tree of
/// `Contour`s (shapes, their holes, shapes inside holes), normalised with a lower-left origin and
/// relative to the request's region of interest.
public struct ContoursObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The outermost contours, in OpenCV's order.
    public var topLevelContours: [Contour]
    /// The number of contours at every level.
    public var contourCount: Int
    /// Width / height of the analysed image (see `Contour.aspectRatio`).
    public var aspectRatio: Float

    /// An observation of the `topLevelContours` trees; `contourCount` counts them at every level.
    public init(topLevelContours: [Contour], aspectRatio: Float, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.topLevelContours = topLevelContours
        self.aspectRatio = aspectRatio
        func count(_ c: Contour) -> Int { 1 + c.childContours.reduce(0) { $0 + count($1) } }
        self.contourCount = topLevelContours.reduce(0) { $0 + count($1) }
    }

    /// The number of top-level contours.
    public var topLevelContourCount: Int { topLevelContours.count }

    /// The contour at `indexPath` (`[i]`: the i-th top-level contour, `[i, j]`: its j-th child, …), or nil.
    public func contour(at indexPath: IndexPath) -> Contour? {
        guard let first = indexPath.first, topLevelContours.indices.contains(first) else { return nil }
        return topLevelContours[first].contour(at: indexPath.dropFirst())
    }

    /// Every contour, parents before their children (depth first).
    public var allContours: [Contour] {
        var out: [Contour] = []
        out.reserveCapacity(contourCount)
        func visit(_ c: Contour) {
            out.append(c)
            c.childContours.forEach(visit)
        }
        topLevelContours.forEach(visit)
        return out
    }
}
