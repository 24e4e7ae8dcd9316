import Foundation
import OpenVision

/// Core Graphics' mutable path: subpaths built with `move(to:)`, lines, rectangles, ellipses, arcs and curves,
/// each point through the optional transform.
open class CGMutablePath: CGPath, @unchecked Sendable {
    /// An empty path.
    public init() {
        super.init(VectorPath())
    }

    override init(_ path: VectorPath) {
        super.init(path)
    }

    private func append(_ element: VectorPath.Element) {
        path.elements.append(element)
        current = Self.endPoint(of: path)
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        append(.move(to: point.applying(transform)))
    }

    /// A straight segment from the current point to `point`; nothing without a current point (Core Graphics logs
    /// "no current point" and adds nothing).
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        guard current != nil else { return }
        append(.line(to: point.applying(transform)))
    }

    /// A subpath through `points`: a move to the first, lines to the others.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    /// A closed rectangle subpath: (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        addLines(
            between: [
                CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
                CGPoint(x: r.minX, y: r.maxY),
            ], transform: transform)
        closeSubpath()
    }

    /// One closed rectangle subpath per rectangle.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// A closed ellipse subpath inscribed in `rect`: four cubic curves (control distance 0.5523 of each radius) from
    /// (maxX, midY) through (midX, maxY), (minX, midY) and (midX, minY).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let cx = r.midX
        let cy = r.midY
        let rx = r.width / 2
        let ry = r.height / 2
        let k: CGFloat = 0.552_284_749_830_793_4
        move(to: CGPoint(x: cx + rx, y: cy), transform: transform)
        let quarters: [(CGFloat, CGFloat)] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 0)]
        for i in 0..<4 {
            let (x0, y0) = quarters[i]
            let (x1, y1) = quarters[i + 1]
            addCurve(
                to: CGPoint(x: cx + x1 * rx, y: cy + y1 * ry),
                control1: CGPoint(x: cx + (x0 - k * y0) * rx, y: cy + (y0 + k * x0) * ry),
                control2: CGPoint(x: cx + (x1 + k * y1) * rx, y: cy + (y1 - k * x1) * ry),
                transform: transform)
        }
        closeSubpath()
    }

    /// A closed rectangle subpath with quarter-ellipse corners of radii `cornerWidth` × `cornerHeight` (each at most
    /// half the side).
    public func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        let r = rect.standardized
        let w = min(max(0, cornerWidth), r.width / 2)
        let h = min(max(0, cornerHeight), r.height / 2)
        guard w > 0, h > 0 else { return addRect(r, transform: transform) }
        let k: CGFloat = 0.552_284_749_830_793_4
        move(to: CGPoint(x: r.minX + w, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX - w, y: r.minY), transform: transform)
        addCurve(
            to: CGPoint(x: r.maxX, y: r.minY + h), control1: CGPoint(x: r.maxX - w + k * w, y: r.minY),
            control2: CGPoint(x: r.maxX, y: r.minY + h - k * h), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - h), transform: transform)
        addCurve(
            to: CGPoint(x: r.maxX - w, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - h + k * h),
            control2: CGPoint(x: r.maxX - w + k * w, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX + w, y: r.maxY), transform: transform)
        addCurve(
            to: CGPoint(x: r.minX, y: r.maxY - h), control1: CGPoint(x: r.minX + w - k * w, y: r.maxY),
            control2: CGPoint(x: r.minX, y: r.maxY - h + k * h), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.minY + h), transform: transform)
        addCurve(
            to: CGPoint(x: r.minX + w, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + h - k * h),
            control2: CGPoint(x: r.minX + w - k * w, y: r.minY), transform: transform)
        closeSubpath()
    }

    /// A cubic Bézier curve from the current point to `end`; nothing without a current point.
    public func addCurve(
        to end: CGPoint, control1: CGPoint, control2: CGPoint,
        transform: CGAffineTransform = .identity
    ) {
        guard current != nil else { return }
        append(
            .curve(
                to: end.applying(transform), control1: control1.applying(transform),
                control2: control2.applying(transform)))
    }

    /// A quadratic Bézier curve from the current point to `end`; nothing without a current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        guard current != nil else { return }
        append(.quadCurve(to: end.applying(transform), control: control.applying(transform)))
    }

    /// An arc of the circle at `center` from `startAngle` to `endAngle` (radians, measured from the x axis towards
    /// y), `clockwise` meaning decreasing angle; a line joins the current point to the arc's start, or a move starts
    /// there. Drawn as cubic curves of at most a quarter turn.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
        transform: CGAffineTransform = .identity
    ) {
        var sweep = endAngle - startAngle
        let turn = 2 * CGFloat.pi
        if clockwise {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) - (sweep >= turn ? 0 : turn) }
            sweep = max(sweep, -turn)
        } else {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) + (sweep <= -turn ? 0 : turn) }
            sweep = min(sweep, turn)
        }
        addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: sweep, transform: transform)
    }

    /// An arc of the circle at `center` from `startAngle` through `delta` radians (negative: decreasing angle).
    public func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        func point(_ angle: CGFloat) -> CGPoint {
            CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        if current == nil {
            move(to: point(startAngle), transform: transform)
        } else {
            addLine(to: point(startAngle), transform: transform)
        }
        let pieces = max(1, Int((abs(delta) / (CGFloat.pi / 2)).rounded(.up)))
        let step = delta / CGFloat(pieces)
        // Control distance of a cubic approximating an arc of `step`: 4/3 · tan(step / 4) · radius.
        let k = 4 / 3 * tan(step / 4)
        for i in 0..<pieces {
            let a0 = startAngle + CGFloat(i) * step
            let a1 = a0 + step
            let p0 = point(a0)
            let p1 = point(a1)
            addCurve(
                to: p1, control1: CGPoint(x: p0.x - k * radius * sin(a0), y: p0.y + k * radius * cos(a0)),
                control2: CGPoint(x: p1.x + k * radius * sin(a1), y: p1.y - k * radius * cos(a1)),
                transform: transform)
        }
    }

    /// An arc of `radius` tangent to the line from the current point to `tangent1End` and to the line from there to
    /// `tangent2End`, joined by a line from the current point (a straight line to `tangent1End` when the lines are
    /// parallel or the radius is 0).
    public func addArc(
        tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        guard let here = currentUntransformed(transform) else {
            move(to: tangent1End, transform: transform)
            return
        }
        let v1 = CGVector(dx: here.x - tangent1End.x, dy: here.y - tangent1End.y)
        let v2 = CGVector(dx: tangent2End.x - tangent1End.x, dy: tangent2End.y - tangent1End.y)
        let l1 = hypot(v1.dx, v1.dy)
        let l2 = hypot(v2.dx, v2.dy)
        let cross = v1.dx * v2.dy - v1.dy * v2.dx
        guard radius > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: tangent1End, transform: transform)
            return
        }
        let u1 = CGVector(dx: v1.dx / l1, dy: v1.dy / l1)
        let u2 = CGVector(dx: v2.dx / l2, dy: v2.dy / l2)
        let angle = acos(max(-1, min(1, u1.dx * u2.dx + u1.dy * u2.dy)))  // between the two legs
        let distance = radius / tan(angle / 2)  // from the corner to each tangent point
        let start = CGPoint(x: tangent1End.x + u1.dx * distance, y: tangent1End.y + u1.dy * distance)
        let end = CGPoint(x: tangent1End.x + u2.dx * distance, y: tangent1End.y + u2.dy * distance)
        let bisector = CGVector(dx: u1.dx + u2.dx, dy: u1.dy + u2.dy)
        let bl = hypot(bisector.dx, bisector.dy)
        let centreDistance = radius / sin(angle / 2)
        let center = CGPoint(
            x: tangent1End.x + bisector.dx / bl * centreDistance,
            y: tangent1End.y + bisector.dy / bl * centreDistance)
        let a0 = atan2(start.y - center.y, start.x - center.x)
        let a1 = atan2(end.y - center.y, end.x - center.x)
        var delta = a1 - a0
        if delta > .pi { delta -= 2 * .pi }
        if delta < -.pi { delta += 2 * .pi }
        addLine(to: start, transform: transform)
        addRelativeArc(center: center, radius: radius, startAngle: a0, delta: delta, transform: transform)
    }

    /// The current point in the coordinates before `transform` (nil without one, or for a transform that cannot
    /// be inverted).
    private func currentUntransformed(_ transform: CGAffineTransform) -> CGPoint? {
        guard let current else { return nil }
        if transform.isIdentity { return current }
        guard transform.a * transform.d - transform.b * transform.c != 0 else { return nil }
        return current.applying(transform.inverted())
    }

    /// Appends `path`'s elements, each point through `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        self.path.elements +=
            (transform.isIdentity ? path.path : path.path.applying { $0.applying(transform) }).elements
        current = Self.endPoint(of: self.path)
    }

    /// Closes the current subpath (nothing for an empty path).
    public func closeSubpath() {
        guard current != nil else { return }
        append(.close)
    }
}
