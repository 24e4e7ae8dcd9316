import Foundation

/// Trajectories in the report (`trajectories`).
extension AnalysisReport {
    /// An object moving along a parabola (`TrajectoryObservation`).
    public struct Trajectory: Sendable, Codable, Hashable {
        /// Stable while the trajectory is followed.
        public var id: String
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// Oldest first.
        public var detectedPoints: [Point]
        /// The parabola's points at the detected points' x, oldest first.
        public var projectedPoints: [Point]
        /// [a, b, c] of y = a·x² + b·x + c in normalised coordinates (lower-left origin).
        public var equationCoefficients: [Float]
        /// Fraction of the image width.
        public var movingAverageRadius: Double
        /// Seconds (frame times).
        public var start: Double
        /// Seconds (frame time of the latest point).
        public var end: Double
    }

    /// Adds trajectories.
    public mutating func add(_ observations: [TrajectoryObservation]) {
        trajectories = observations.map {
            Trajectory(
                id: $0.uuid.uuidString, confidence: $0.confidence, detectedPoints: $0.detectedPoints.map(point),
                projectedPoints: $0.projectedPoints.map(point),
                equationCoefficients: [
                    $0.equationCoefficients.x, $0.equationCoefficients.y, $0.equationCoefficients.z,
                ],
                movingAverageRadius: $0.movingAverageRadius, start: $0.timeRange.lowerBound.seconds as Double,
                end: $0.timeRange.upperBound.seconds as Double)
        }
    }

    static func summary(_ trajectories: [Trajectory]) -> [String] {
        trajectories.map { t in
            let last =
                t.detectedPoints.last.map { String(format: " last at (%.0f,%.0f)", $0.pixels.x, $0.pixels.y) } ?? ""
            return String(
                format: "  trajectory %@ %.2f: %d points, %.2f–%.2f s", String(t.id.prefix(8)), t.confidence,
                t.detectedPoints.count, t.start, t.end) + last
        }
    }
}

extension TrajectoryObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
