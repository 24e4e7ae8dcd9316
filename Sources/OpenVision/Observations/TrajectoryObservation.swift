import Foundation

/// An object moving along a parabola, as Vision's `TrajectoryObservation` (from `DetectTrajectoriesRequest`).
///
/// Points are normalised with a lower-left origin, relative to the request's region of interest; the
/// parabola is y = a·x² + b·x + c in the same coordinates. A trajectory keeps its `uuid` from frame to
/// frame while it is followed.
public struct TrajectoryObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// 1 − RMS distance of the detected points from the parabola relative to the object's radius, 0...1.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The object's centroids in the last `trajectoryLength` analysed frames, oldest first.
    public var detectedPoints: [NormalizedPoint]
    /// The detected points moved onto the fitted parabola (same x, y from the equation).
    public var projectedPoints: [NormalizedPoint]
    /// (a, b, c) of y = a·x² + b·x + c, least squares over `detectedPoints`.
    public var equationCoefficients: SIMD3<Float>
    /// The mean radius of the object over the detected points, as a fraction of the image width.
    public var movingAverageRadius: Double
    /// From the trajectory's first detection to this frame (frame times; see `DetectTrajectoriesRequest`).
    public var timeRange: ClosedRange<Duration>

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        detectedPoints: [NormalizedPoint], projectedPoints: [NormalizedPoint], equationCoefficients: SIMD3<Float>,
        movingAverageRadius: Double, timeRange: ClosedRange<Duration>, confidence: Float = 1, uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.detectedPoints = detectedPoints
        self.projectedPoints = projectedPoints
        self.equationCoefficients = equationCoefficients
        self.movingAverageRadius = movingAverageRadius
        self.timeRange = timeRange
    }

    /// The parabola's y at `x` (normalised).
    public func y(at x: Double) -> Double {
        let c = equationCoefficients
        return Double(c.x) * x * x + Double(c.y) * x + Double(c.z)
    }

    // Duration is Codable; ClosedRange<Duration> is coded as [lower, upper] by the standard library.
}
