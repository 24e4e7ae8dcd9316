import OpenVision

/// A request that keeps state across the frames of a sequence (Vision's `VNStatefulRequest`): perform the same
/// instance on every frame with a `VNSequenceRequestHandler`.
open class VNStatefulRequest: VNImageBasedRequest {
    /// Frames analysed so far.
    public var frameAnalysisSpacing: CMTime = .zero
}

/// Core Media's time, as far as Vision's stateful requests use it.
public struct CMTime: Hashable, Sendable {
    public var value: Int64
    public var timescale: Int32
    public init(value: Int64, timescale: Int32) { self.value = value; self.timescale = timescale }
    public static let zero = CMTime(value: 0, timescale: 1)
    public var seconds: Double { timescale == 0 ? 0 : Double(value) / Double(timescale) }
    var duration: Duration { .nanoseconds(Int64(seconds * 1e9)) }
    /// A duration in nanoseconds.
    init(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(value: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, timescale: 1_000_000_000)
    }
}
