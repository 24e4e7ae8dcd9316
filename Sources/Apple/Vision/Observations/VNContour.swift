import Foundation
import OpenVision

/// One contour and its children, as Vision's.
open class VNContour {
    let native: Contour
    /// Where the contour is in the tree: [i] top level, [i, j] its j-th child, …
    public var indexPath: IndexPath { native.indexPath }
    /// The outline's points, normalised with a lower-left origin.
    public var normalizedPoints: [SIMD2<Float>] { native.normalizedPoints }
    /// The number of points.
    public var pointCount: Int { native.pointCount }
    /// The contours directly inside this one.
    public var childContours: [VNContour] { native.childContours.map(VNContour.init) }
    /// The number of contours directly inside this one.
    public var childContourCount: Int { native.childContourCount }
    /// Width / height of the analysed image (the normalised points' aspect).
    public var aspectRatio: Float { native.aspectRatio }

    init(_ c: Contour) { native = c }

    /// The outline simplified with Douglas–Peucker at `epsilon` (normalised units); throws `VNError` for a bad epsilon.
    public func polygonApproximation(epsilon: Float) throws -> VNContour {
        do { return VNContour(try native.polygonApproximation(epsilon: epsilon)) } catch { throw VNError(error) }
    }
}

extension VNContour: Equatable, Hashable {
    /// Contours are equal when they are the same contour of an observation: the same `indexPath` and the same points
    /// (Vision's `isEqual:`), so a contour found again through `childContours` equals the one it was.
    public static func == (a: VNContour, b: VNContour) -> Bool {
        a.indexPath == b.indexPath && a.normalizedPoints == b.normalizedPoints
    }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(indexPath)
        hasher.combine(pointCount)
    }
}
