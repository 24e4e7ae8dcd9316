import Foundation
import OpenVision

/// One landmark region: points normalised to the face's bounding box (lower-left origin), as Vision's.
open class VNFaceLandmarkRegion2D {
    let native: FaceLandmarks2D.Region
    /// The number of points; 0 for a region the revision does not give.
    public var pointCount: Int { native.pointCount }
    /// Points relative to the face's bounding box, 0...1.
    public var normalizedPoints: [CGPoint] { native.normalizedPoints.map(\.cgPoint) }

    /// Per point, an estimate of its error as a share of the face box's width (Apple's `[NSNumber]?`); nil for dlib's
    /// points (revisions 1 and 2). OpenVision's estimate: how far the point moves when the face mesh reads the
    /// mirrored crop (pupils: the iris model's iris centre against the centre of its iris-rim points).
    public var precisionEstimatesPerPoint: [NSNumber]? {
        native.precisionEstimatesPerPoint?.map { NSNumber(value: $0) }
    }

    init(_ region: FaceLandmarks2D.Region) { native = region }

    /// The points in image pixels (lower-left origin, as Vision's) for an image of `imageSize`.
    public func pointsInImage(imageSize: CGSize) -> [CGPoint] { native.pointsInImage(imageSize: imageSize) }
}
