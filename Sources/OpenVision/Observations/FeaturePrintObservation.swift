import Foundation

/// An image's feature print, as Vision's `FeaturePrintObservation`: a vector from a model's
/// penultimate layer. Nearby images have nearby prints.
public struct FeaturePrintObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The raw feature vector.
    public var data: [Float]

    /// A feature print of `data` (confidence 1).
    public init(data: [Float], uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = 1
        self.data = data
    }

    /// Number of elements.
    public var elementCount: Int { data.count }

    /// Euclidean distance between the two prints after scaling each to unit length: 0 for the
    /// same direction, up to 2 (a `Double`, as Vision's; computed in `Float`). Throws `invalidArgument` for prints of
    /// different lengths.
    public func distance(to other: FeaturePrintObservation) throws(VisionError) -> Double {
        guard data.count == other.data.count, !data.isEmpty else {
            throw VisionError(
                .invalidArgument, "feature prints differ in length (\(data.count) vs \(other.data.count))")
        }
        let na = max(sqrt(data.reduce(0) { $0 + $1 * $1 }), .leastNonzeroMagnitude)
        let nb = max(sqrt(other.data.reduce(0) { $0 + $1 * $1 }), .leastNonzeroMagnitude)
        var sum: Float = 0
        for i in data.indices {
            let d = data[i] / na - other.data[i] / nb
            sum += d * d
        }
        return Double(sqrt(sum))
    }
}
