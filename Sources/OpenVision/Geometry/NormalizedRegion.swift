import Foundation

/// A polygon of normalised points (lower-left origin), as Vision's `NormalizedRegion`: Apple's is the contour type,
/// and so is ours. Document results (`DocumentObservation`) give their regions as one: four corners for a box, which
/// stay a box when the page was read turned or skewed.
public typealias NormalizedRegion = Contour

extension ContoursObservation {
    /// Vision's name for a contour (`ContoursObservation.Contour`): the same type as `Contour`.
    public typealias Contour = OpenVision.Contour
}

/// A result with a polygon around it (normalised, lower-left origin), as Vision's `BoundingRegionProviding`.
public protocol BoundingRegionProviding {
    /// The polygon around the result.
    var boundingRegion: NormalizedRegion { get }
}

extension Contour {
    /// A region of the polygon through `points` (normalised, lower-left origin), in order; `aspectRatio` is the
    /// analysed image's width / height.
    public init(points: [NormalizedPoint], aspectRatio: Float) {
        self.init(
            indexPath: IndexPath(), normalizedPoints: points.map { SIMD2<Float>(Float($0.x), Float($0.y)) },
            aspectRatio: aspectRatio)
    }

    /// The region of the rectangle `rect`: its corners top-left, top-right, bottom-right, bottom-left as seen upright.
    public init(rect: NormalizedRect, aspectRatio: Float) {
        self.init(
            points: [
                NormalizedPoint(x: rect.minX, y: rect.maxY), NormalizedPoint(x: rect.maxX, y: rect.maxY),
                NormalizedPoint(x: rect.maxX, y: rect.minY), NormalizedPoint(x: rect.minX, y: rect.minY),
            ],
            aspectRatio: aspectRatio)
    }

    /// True when `point` (normalised, lower-left origin) lies inside the polygon or on its edge (even-odd rule, the
    /// polygon closed).
    public func contains(_ point: NormalizedPoint) -> Bool {
        let px = Float(point.x)
        let py = Float(point.y)
        let p = normalizedPoints
        guard p.count >= 3 else { return false }
        var inside = false
        var j = p.count - 1
        for i in p.indices {
            let a = p[i]
            let b = p[j]
            // On the edge a–b (within float rounding).
            let cross = (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
            if abs(cross) <= 1e-7, px >= min(a.x, b.x) - 1e-7, px <= max(a.x, b.x) + 1e-7,
                py >= min(a.y, b.y) - 1e-7, py <= max(a.y, b.y) + 1e-7
            {
                return true
            }
            if (a.y > py) != (b.y > py), px < (b.x - a.x) * (py - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
