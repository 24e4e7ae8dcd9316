import Foundation
import OpenVision

/// Every contour of an image, as a tree, as Vision's.
open class VNContoursObservation: VNObservation {
    let native: ContoursObservation
    /// The number of contours at every level.
    public var contourCount: Int { native.contourCount }
    /// The number of outermost contours.
    public var topLevelContourCount: Int { native.topLevelContourCount }
    /// The outermost contours, in OpenCV's order.
    public var topLevelContours: [VNContour] { native.topLevelContours.map(VNContour.init) }

    init(_ o: ContoursObservation) {
        native = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The contour at `indexPath` (see `VNContour.indexPath`); throws `VNError` `.outOfBoundsError` when there is none.
    public func contour(at indexPath: IndexPath) throws -> VNContour {
        guard let c = native.contour(at: indexPath) else {
            throw VNError(.outOfBoundsError, "no contour at \(indexPath)")
        }
        return VNContour(c)
    }
}
