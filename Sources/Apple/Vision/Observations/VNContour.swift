import Foundation
import OpenVision

/// One contour and its children, as Vision's.
open class VNContour {
    let native: Contour
    public var indexPath: IndexPath { native.indexPath }
    public var normalizedPoints: [SIMD2<Float>] { native.normalizedPoints }
    public var pointCount: Int { native.pointCount }
    public var childContours: [VNContour] { native.childContours.map(VNContour.init) }
    public var childContourCount: Int { native.childContourCount }
    public var aspectRatio: Float { native.aspectRatio }

    init(_ c: Contour) { native = c }

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
