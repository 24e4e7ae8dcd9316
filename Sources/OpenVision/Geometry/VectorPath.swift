import Foundation

/// A two-dimensional path of straight and curved segments in one or more subpaths, as vector drawing APIs hold it
/// (Core Graphics' `CGPath` is one): its elements, its bounds, its outline as polygons, and whether a point is
/// inside it. Coordinates are whatever the caller's are; a value type.
public struct VectorPath: Sendable, Hashable {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        /// Starts a new subpath at the point.
        case move(to: CGPoint)
        /// A straight segment to the point.
        case line(to: CGPoint)
        /// A quadratic Bézier segment to the point.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier segment to the point.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the subpath with a straight segment back to its start.
        case close

        /// The points the element names, end point last.
        public var points: [CGPoint] {
            switch self {
            case .move(let p), .line(let p): [p]
            case .quadCurve(let p, let c): [c, p]
            case .curve(let p, let c1, let c2): [c1, c2, p]
            case .close: []
            }
        }
    }

    /// How the inside of a path is decided.
    public enum FillRule: Sendable, Hashable {
        /// Inside where the path winds around the point a non-zero number of times.
        case nonZeroWinding
        /// Inside where a ray from the point crosses the path an odd number of times.
        case evenOdd
    }

    /// The elements in order.
    public var elements: [Element]

    /// A path of these elements.
    public init(elements: [Element] = []) {
        self.elements = elements
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The smallest rectangle holding every point the elements name, control points included; `CGRect.null` for a
    /// path without points.
    public var controlPointBounds: CGRect {
        Self.bounds(of: elements.flatMap(\.points))
    }

    /// The smallest rectangle holding the path itself: curves' extremes, not their control points; `CGRect.null` for
    /// a path without points.
    public var bounds: CGRect {
        var points: [CGPoint] = []
        var current = CGPoint.zero
        var start = CGPoint.zero
        for element in elements {
            switch element {
            case .move(let p):
                points.append(p)
                current = p
                start = p
            case .line(let p):
                points.append(p)
                current = p
            case .quadCurve(let p, let c):
                points.append(p)
                for t in Self.quadExtremes(current, c, p) { points.append(Self.quad(current, c, p, t)) }
                current = p
            case .curve(let p, let c1, let c2):
                points.append(p)
                for t in Self.cubicExtremes(current, c1, c2, p) { points.append(Self.cubic(current, c1, c2, p, t)) }
                current = p
            case .close:
                current = start
            }
        }
        return Self.bounds(of: points)
    }

    /// The path's subpaths as polygons: curves replaced by straight segments no farther than `tolerance` from them
    /// (in the path's units), each polygon from its subpath's start; a subpath is closed when it ends with `.close`.
    public func polygons(tolerance: Double = 0.25) -> [(points: [CGPoint], closed: Bool)] {
        var result: [(points: [CGPoint], closed: Bool)] = []
        var points: [CGPoint] = []
        var current = CGPoint.zero
        func finish(closed: Bool) {
            if !points.isEmpty { result.append((points, closed)) }
            points = []
        }
        for element in elements {
            switch element {
            case .move(let p):
                finish(closed: false)
                points = [p]
                current = p
            case .line(let p):
                if points.isEmpty { points = [current] }
                points.append(p)
                current = p
            case .quadCurve(let p, let c):
                if points.isEmpty { points = [current] }
                let n = Self.segments([current, c, p], tolerance: tolerance)
                let from = current
                points += (1...n).map { Self.quad(from, c, p, Double($0) / Double(n)) }
                current = p
            case .curve(let p, let c1, let c2):
                if points.isEmpty { points = [current] }
                let n = Self.segments([current, c1, c2, p], tolerance: tolerance)
                let from = current
                points += (1...n).map { Self.cubic(from, c1, c2, p, Double($0) / Double(n)) }
                current = p
            case .close:
                let start = points.first ?? current
                finish(closed: true)
                current = start
            }
        }
        finish(closed: false)
        return result
    }

    /// Whether `point` is inside the area the path encloses under `rule`, every subpath taken as closed (as filling
    /// it would); curves are followed within `tolerance` (by default a millionth of the path's size). Points exactly
    /// on the outline may go either way.
    public func contains(_ point: CGPoint, rule: FillRule = .nonZeroWinding, tolerance: Double? = nil) -> Bool {
        var winding = 0
        var crossings = 0
        let box = controlPointBounds
        guard !box.isNull else { return false }
        let limit = tolerance ?? max(1e-9, 1e-6 * Double(max(box.width, box.height)))
        for polygon in polygons(tolerance: limit) where polygon.points.count > 2 {
            let p = polygon.points
            for i in 0..<p.count {
                let a = p[i]
                let b = p[(i + 1) % p.count]
                // Upward edges that cross the point's row to its right wind +1, downward ones −1.
                if a.y <= point.y {
                    if b.y > point.y && Self.side(a, b, point) > 0 {
                        winding += 1
                        crossings += 1
                    }
                } else if b.y <= point.y && Self.side(a, b, point) < 0 {
                    winding -= 1
                    crossings += 1
                }
            }
        }
        return rule == .nonZeroWinding ? winding != 0 : crossings % 2 == 1
    }

    /// The path with every point mapped by `transform` (exact for affine maps, which keep Bézier curves Bézier).
    public func applying(_ transform: (CGPoint) -> CGPoint) -> VectorPath {
        VectorPath(
            elements: elements.map { element in
                switch element {
                case .move(let p): .move(to: transform(p))
                case .line(let p): .line(to: transform(p))
                case .quadCurve(let p, let c): .quadCurve(to: transform(p), control: transform(c))
                case .curve(let p, let c1, let c2):
                    .curve(to: transform(p), control1: transform(c1), control2: transform(c2))
                case .close: .close
                }
            })
    }

    // MARK: Geometry

    /// > 0 when `p` is left of the line from `a` to `b`, < 0 when right, 0 on it.
    private static func side(_ a: CGPoint, _ b: CGPoint, _ p: CGPoint) -> Double {
        Double((b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y))
    }

    private static func bounds(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x
        var minY = first.y
        var maxX = first.x
        var maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Segments for a Bézier curve with these control points so that the chords stay within `tolerance` of it
    /// (Wang's bound: n ≥ √(D / (8·tolerance)), D = degree·(degree − 1)·max |second difference of the control
    /// points|), 1...1024.
    private static func segments(_ controls: [CGPoint], tolerance: Double) -> Int {
        let degree = Double(controls.count - 1)
        var largest = 0.0
        for i in 0..<(controls.count - 2) {
            let dx = Double(controls[i + 2].x - 2 * controls[i + 1].x + controls[i].x)
            let dy = Double(controls[i + 2].y - 2 * controls[i + 1].y + controls[i].y)
            largest = max(largest, (dx * dx + dy * dy).squareRoot())
        }
        let bound = degree * (degree - 1) * largest
        guard bound.isFinite, bound > 0, tolerance > 0 else { return 1 }
        return min(1024, max(1, Int((bound / (8 * tolerance)).squareRoot().rounded(.up))))
    }

    private static func quad(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint, _ t: Double) -> CGPoint {
        let u = 1 - t
        return CGPoint(
            x: u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
    }

    private static func cubic(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint, _ t: Double) -> CGPoint {
        let u = 1 - t
        let a = u * u * u
        let b = 3 * u * u * t
        let c = 3 * u * t * t
        let d = t * t * t
        return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p1.x, y: a * p0.y + b * c1.y + c * c2.y + d * p1.y)
    }

    /// The parameters in (0, 1) where a quadratic's x or y derivative is zero.
    private static func quadExtremes(_ p0: CGPoint, _ c: CGPoint, _ p1: CGPoint) -> [Double] {
        [(p0.x, c.x, p1.x), (p0.y, c.y, p1.y)].compactMap { a, b, d -> Double? in
            let denominator = Double(a - 2 * b + d)
            guard denominator != 0 else { return nil }
            let t = Double(a - b) / denominator
            return t > 0 && t < 1 ? t : nil
        }
    }

    /// The parameters in (0, 1) where a cubic's x or y derivative is zero.
    private static func cubicExtremes(_ p0: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ p1: CGPoint) -> [Double] {
        var result: [Double] = []
        for (a, b, c, d) in [(p0.x, c1.x, c2.x, p1.x), (p0.y, c1.y, c2.y, p1.y)] {
            // B'(t)/3 = (b − a)(1 − t)² + 2(c − b)(1 − t)t + (d − c)t² = A t² + B t + C.
            let qa = Double(-a + 3 * b - 3 * c + d)
            let qb = Double(2 * (a - 2 * b + c))
            let qc = Double(b - a)
            if abs(qa) < 1e-12 {
                if qb != 0 { result.append(-qc / qb) }
                continue
            }
            let discriminant = qb * qb - 4 * qa * qc
            guard discriminant >= 0 else { continue }
            let root = discriminant.squareRoot()
            result += [(-qb + root) / (2 * qa), (-qb - root) / (2 * qa)]
        }
        return result.filter { $0 > 0 && $0 < 1 }
    }
}
