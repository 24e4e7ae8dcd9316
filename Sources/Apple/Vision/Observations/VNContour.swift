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
