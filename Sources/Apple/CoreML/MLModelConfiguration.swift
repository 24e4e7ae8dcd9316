/// Where Core ML may run a model. On Linux every choice runs on the CPU (ONNX Runtime or OpenCV DNN).
public enum MLComputeUnits: Int, Sendable {
    /// The CPU only.
    case cpuOnly = 0
    /// CPU and GPU on Apple's; the CPU here.
    case cpuAndGPU = 1
    /// Every unit on Apple's; the CPU here.
    case all = 2
    /// CPU and Neural Engine on Apple's; the CPU here.
    case cpuAndNeuralEngine = 3
}

/// Core ML's `MLModelConfiguration`: `computeUnits` (all run on the CPU here) and, beyond Apple's API,
/// `threads` (0: every core).
open class MLModelConfiguration {
    /// Accepted; every choice runs on the CPU here. Default `.all`.
    public var computeUnits: MLComputeUnits = .all
    /// Accepted and not used (no GPU here). Default false.
    public var allowLowPrecisionAccelerationOnGPU = false
    /// Inference threads; 0 lets the backend use every core.
    public var threads = 0
    /// The default configuration.
    public init() {}
}
