import Foundation
import OpenVision

/// Every contour of an image, as a tree, as Vision's.
open class VNContoursObservation: VNObservation {
    let native: ContoursObservation
    public var contourCount: Int { native.contourCount }
    public var topLevelContourCount: Int { native.topLevelContourCount }
    public var topLevelContours: [VNContour] { native.topLevelContours.map(VNContour.init) }

    init(_ o: ContoursObservation) {
        native = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    public func contour(at indexPath: IndexPath) throws -> VNContour {
        guard let c = native.contour(at: indexPath) else { throw VNError(.outOfBoundsError, "no contour at \(indexPath)") }
        return VNContour(c)
    }
}
