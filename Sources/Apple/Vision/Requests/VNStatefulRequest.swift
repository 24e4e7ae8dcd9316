import CoreMedia
import OpenVision

/// A request that keeps state across the frames of a sequence (Vision's `VNStatefulRequest`): perform the same
/// instance on every frame with a `VNSequenceRequestHandler`.
open class VNStatefulRequest: VNImageBasedRequest {
    /// The time between the frames the request analyses (Core Media's `CMTime`; zero: every frame).
    public var frameAnalysisSpacing: CMTime = .zero
}
