/// Core ML's `MLPredictionOptions`. Every prediction runs on the CPU here, so `usesCPUOnly` changes nothing.
open class MLPredictionOptions {
    /// Accepted; every prediction runs on the CPU here. Default false.
    public var usesCPUOnly = false
    /// Output buffers to fill (Core ML's `outputBackings`); not used: outputs are always new arrays here.
    public var outputBackings: [String: Any] = [:]
    /// The default options.
    public init() {}
}
