import Foundation

/// The kind of a path element (Apple's raw values).
public enum CGPathElementType: Int32, Sendable {
    /// Starts a subpath: one point.
    case moveToPoint = 0
    /// A straight segment: one point.
    case addLineToPoint = 1
    /// A quadratic curve: the control point, then the end point.
    case addQuadCurveToPoint = 2
    /// A cubic curve: two control points, then the end point.
    case addCurveToPoint = 3
    /// Closes the subpath: no point.
    case closeSubpath = 4
}

/// One element of a path as `CGPath.applyWithBlock` hands it over: its type and its points (valid only inside the
/// block).
public struct CGPathElement {
    /// The kind of element.
    public var type: CGPathElementType
    /// The element's points: 1, 2 or 3 of them (none for `.closeSubpath`).
    public var points: UnsafeMutablePointer<CGPoint>

    /// An element of this type with these points.
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// How a path's inside is decided when it is filled or tested.
public enum CGPathFillRule: Int, Sendable {
    /// Non-zero winding number.
    case winding = 0
    /// Even-odd.
    case evenOdd = 1
}
