/// Core ML's `MLPredictionOptions`. Every prediction runs on the CPU here, so `usesCPUOnly` changes nothing.
open class MLPredictionOptions {
    public var usesCPUOnly = false
    /// Output buffers to fill (Core ML's `outputBackings`); not used: outputs are always new arrays here.
    public var outputBackings: [String: Any] = [:]
    public init() {}
}
