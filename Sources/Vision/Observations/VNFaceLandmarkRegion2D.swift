import Foundation
import OpenVision

/// One landmark region: points normalised to the face's bounding box (lower-left origin), as Vision's.
open class VNFaceLandmarkRegion2D {
    let native: FaceLandmarks2D.Region
    public var pointCount: Int { native.pointCount }
    /// Points relative to the face's bounding box, 0...1.
    public var normalizedPoints: [CGPoint] { native.normalizedPoints.map(\.cgPoint) }

    init(_ region: FaceLandmarks2D.Region) { native = region }

    /// The points in image pixels (lower-left origin, as Vision's) for an image of `imageSize`.
    public func pointsInImage(imageSize: CGSize) -> [CGPoint] { native.pointsInImage(imageSize: imageSize) }
}
