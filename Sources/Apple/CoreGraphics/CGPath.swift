import Foundation
import OpenVision

/// Core Graphics' immutable path: subpaths of lines and Bézier curves (OpenVision's `VectorPath`), with its bounds,
/// point containment, copies (transformed) and element walk. A reference type, as Apple's; `CGMutablePath` is the
/// mutable subclass. Two paths are equal when their elements are.
open class CGPath: Hashable, @unchecked Sendable {
    /// The elements.
    var path: VectorPath
    /// The current point: the last element's end point (the subpath's start after a close).
    var current: CGPoint?

    init(_ path: VectorPath) {
        self.path = path
        current = Self.endPoint(of: path)
    }

    /// A closed rectangle: move to (minX, minY), lines to (maxX, minY), (maxX, maxY), (minX, maxY), close; each point
    /// through `transform` when given.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(path.path)
    }

    /// A closed ellipse inscribed in `rect` (four cubic curves from (maxX, midY)).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(path.path)
    }

    /// A closed rectangle with quarter-ellipse corners of these radii.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>?
    ) {
        let path = CGMutablePath()
        path.addRoundedRect(
            in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
            transform: transform?.pointee ?? .identity)
        self.init(path.path)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The current point (`.zero` for an empty path, as Apple's).
    public var currentPoint: CGPoint { current ?? .zero }

    /// The smallest rectangle holding every point of the path, curves' control points included (Apple's
    /// `boundingBox`); `CGRect.null` for an empty path.
    public var boundingBox: CGRect { path.controlPointBounds }

    /// The smallest rectangle holding the path itself, without the control points (Apple's `boundingBoxOfPath`).
    public var boundingBoxOfPath: CGRect { path.bounds }

    /// Whether filling the path (every subpath closed) under `rule` would paint `point`, the path taken through
    /// `transform` first (the point is not transformed), as Apple's.
    public func contains(
        _ point: CGPoint, using rule: CGPathFillRule = .winding,
        transform: CGAffineTransform = .identity
    ) -> Bool {
        let shape = transform.isIdentity ? path : path.applying { $0.applying(transform) }
        return shape.contains(point, rule: rule == .winding ? .nonZeroWinding : .evenOdd)
    }

    /// Whether the path is exactly one rectangle (move, three lines, close, axis-aligned), and which into `rect`.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        let e = path.elements
        guard e.count == 5, case .move(let a) = e[0], case .line(let b) = e[1], case .line(let c) = e[2],
            case .line(let d) = e[3], case .close = e[4]
        else { return false }
        let corners = [a, b, c, d]
        let xs = Set(corners.map(\.x))
        let ys = Set(corners.map(\.y))
        guard xs.count == 2, ys.count == 2,
            zip(corners, corners.dropFirst() + [corners[0]]).allSatisfy({ $0.x == $1.x || $0.y == $1.y })
        else { return false }
        rect?.pointee = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        return true
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(path) }

    /// An immutable copy with every point through `transform` (none: a plain copy).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let t = transform?.pointee else { return copy() }
        return CGPath(path.applying { $0.applying(t) })
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(path) }

    /// A mutable copy with every point through `transform`.
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        guard let t = transform?.pointee else { return mutableCopy() }
        return CGMutablePath(path.applying { $0.applying(t) })
    }

    /// Calls `block` with each element in order; its points are valid only during the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        for element in path.elements {
            var points = element.points
            let type: CGPathElementType =
                switch element {
                case .move: .moveToPoint
                case .line: .addLineToPoint
                case .quadCurve: .addQuadCurveToPoint
                case .curve: .addCurveToPoint
                case .close: .closeSubpath
                }
            if points.isEmpty { points = [.zero] }
            points.withUnsafeMutableBufferPointer { buffer in
                var pathElement = CGPathElement(type: type, points: buffer.baseAddress!)
                block(&pathElement)
            }
        }
    }

    /// Paths are equal when their elements are.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.path == rhs.path }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// The end point of the last element (the subpath's start after a close), nil for an empty path.
    static func endPoint(of path: VectorPath) -> CGPoint? {
        var current: CGPoint?
        var start: CGPoint?
        for element in path.elements {
            switch element {
            case .move(let p):
                current = p
                start = p
            case .close:
                current = start
            default:
                current = element.points.last
            }
        }
        return current
    }
}
