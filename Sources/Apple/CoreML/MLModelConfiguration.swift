/// Where Core ML may run a model. On Linux every choice runs on the CPU (ONNX Runtime or OpenCV DNN).
public enum MLComputeUnits: Int, Sendable {
    case cpuOnly = 0
    case cpuAndGPU = 1
    case all = 2
    case cpuAndNeuralEngine = 3
}

/// Core ML's `MLModelConfiguration`: `computeUnits` (all run on the CPU here) and, beyond Apple's API,
/// `threads` (0: every core).
open class MLModelConfiguration {
    public var computeUnits: MLComputeUnits = .all
    public var allowLowPrecisionAccelerationOnGPU = false
    /// Inference threads; 0 lets the backend use every core.
    public var threads = 0
    public init() {}
}
