internal import CNative
import Foundation

extension Matrix3x3 {
    /// The homography mapping the four points `from` onto `to` (OpenCV's `getPerspectiveTransform`), or nil when
    /// three of either are collinear or a point is not finite. Precondition: four points each.
    public static func perspective(from: [CGPoint], to: [CGPoint]) -> Matrix3x3? {
        precondition(from.count == 4 && to.count == 4, "a perspective transform maps 4 points onto 4")
        let a = from.flatMap { [Double($0.x), Double($0.y)] }
        let b = to.flatMap { [Double($0.x), Double($0.y)] }
        var h = [Double](repeating: 0, count: 9)
        guard ov_perspective_transform(a, b, &h) == OV_OK else { return nil }
        return Matrix3x3(rowMajor: h)
    }

    /// The identity, up to rounding.
    var isIdentity: Bool {
        zip(rowMajor, Matrix3x3.identity.rowMajor).allSatisfy { abs($0 - $1) < 1e-12 }
    }

    /// True for a move by whole pixels (no rotation, scale or fraction).
    var isWholePixelTranslation: Bool {
        isAffine && abs(self[0, 0] - 1) < 1e-12 && abs(self[1, 1] - 1) < 1e-12 && abs(self[0, 1]) < 1e-12
            && abs(self[1, 0]) < 1e-12 && abs(self[0, 2] - self[0, 2].rounded()) < 1e-9
            && abs(self[1, 2] - self[1, 2].rounded()) < 1e-9
    }

    /// True for an affine map (last row 0, 0, 1).
    var isAffine: Bool { abs(self[2, 0]) < 1e-12 && abs(self[2, 1]) < 1e-12 && abs(self[2, 2] - 1) < 1e-12 }

    /// True when the map sends the pixel grid onto itself: an affine map whose linear part swaps or mirrors axes
    /// only (entries 0 or ±1) and whose translation is whole pixels (orientations, whole-pixel moves).
    var preservesPixelGrid: Bool {
        guard isAffine else { return false }
        let linear = [self[0, 0], self[0, 1], self[1, 0], self[1, 1]]
        guard linear.allSatisfy({ abs($0) < 1e-12 || abs(abs($0) - 1) < 1e-12 }),
            abs(abs(self[0, 0]) + abs(self[0, 1]) - 1) < 1e-12, abs(abs(self[1, 0]) + abs(self[1, 1]) - 1) < 1e-12
        else { return false }
        return abs(self[0, 2] - self[0, 2].rounded()) < 1e-9 && abs(self[1, 2] - self[1, 2].rounded()) < 1e-9
    }

    /// The smallest rectangle holding the image of `rect`: infinite when `rect` is, or when part of it maps to or
    /// past infinity; null for a null rect.
    func boundingBox(of rect: CGRect) -> CGRect {
        if rect.isNull { return .null }
        if rect.isInfinite { return .infinite }
        let corners = [
            CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
            CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY),
        ]
        var xs: [Double] = []
        var ys: [Double] = []
        let zs = corners.map { self[2, 0] * Double($0.x) + self[2, 1] * Double($0.y) + self[2, 2] }
        // The line at infinity crossing the rectangle sends part of it to infinity.
        guard zs.allSatisfy({ $0 > 1e-12 }) || zs.allSatisfy({ $0 < -1e-12 }) else { return .infinite }
        for c in corners {
            guard let p = apply(to: c), p.x.isFinite, p.y.isFinite else { return .infinite }
            xs.append(Double(p.x))
            ys.append(Double(p.y))
        }
        let box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        return box.width > 1e15 || box.height > 1e15 ? .infinite : box
    }
}
