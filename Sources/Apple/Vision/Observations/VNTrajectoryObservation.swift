import Foundation
import OpenVision

/// A thrown object's parabola, as Vision's.
open class VNTrajectoryObservation: VNObservation {
    public let detectedPoints: [CGPoint]
    public let projectedPoints: [CGPoint]
    public let equationCoefficients: SIMD3<Float>
    public let movingAverageRadius: CGFloat

    init(_ o: TrajectoryObservation) {
        detectedPoints = o.detectedPoints.map(\.cgPoint)
        projectedPoints = o.projectedPoints.map(\.cgPoint)
        equationCoefficients = o.equationCoefficients
        movingAverageRadius = o.movingAverageRadius
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
