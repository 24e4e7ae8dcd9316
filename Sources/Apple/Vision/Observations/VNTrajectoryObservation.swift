import Foundation
import OpenVision

/// A thrown object's parabola, as Vision's.
open class VNTrajectoryObservation: VNObservation {
    /// The object's centre on each analysed frame of the trajectory (normalised, lower-left origin), oldest first.
    public let detectedPoints: [VNPoint]
    /// The points of the fitted parabola at those frames (Vision's five projected points).
    public let projectedPoints: [VNPoint]
    /// (a, b, c) of y = a·x² + b·x + c, in normalised coordinates (lower-left origin).
    public let equationCoefficients: SIMD3<Float>
    /// The object's average radius over the trajectory, as a fraction of the image width.
    public let movingAverageRadius: CGFloat

    init(_ o: TrajectoryObservation) {
        detectedPoints = o.detectedPoints.map { VNPoint(location: $0.cgPoint) }
        projectedPoints = o.projectedPoints.map { VNPoint(location: $0.cgPoint) }
        equationCoefficients = o.equationCoefficients
        movingAverageRadius = o.movingAverageRadius
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
