import CoreGraphics
import OpenVision

extension Contour {
    /// The outline as a closed path in normalised, lower-left-origin coordinates (Vision's `normalizedPath` of a
    /// contour and of a `NormalizedRegion`): a move to the first point, lines through the rest, closed. Empty when the
    /// contour has no points.
    public var normalizedPath: CGPath {
        let path = CGMutablePath()
        let points = normalizedPoints.map { CGPoint(x: CGFloat($0.x), y: CGFloat($0.y)) }
        guard !points.isEmpty else { return path }
        path.addLines(between: points)
        path.closeSubpath()
        return path
    }
}

extension VNContour {
    /// The outline as a closed path in normalised, lower-left-origin coordinates, as Vision's `normalizedPath`.
    public var normalizedPath: CGPath { native.normalizedPath }
}
