import Foundation

extension DarknetConfig {
    /// Checks a `.cfg` + `.weights` pair before it is handed to another Darknet reader (OpenCV's
    /// importer in OpenVision), which would otherwise trap, allocate without bound, or run on
    /// truncated weights as if they were zeros. Returns the `[net]` input size.
    ///
    /// - The `[net]` section must parse within `DarknetLimits` (syntax and bounds errors throw).
    /// - When the converter's parser understands the whole network, every layer must be within the
    ///   limits and the `.weights` file must hold exactly the floats the `.cfg` needs.
    /// - Networks with layers or options only the other reader supports (`unsupported`), or relying
    ///   on its defaults for keys the converter insists on (`missingKey`), skip the layer and
    ///   weight checks: the other reader is the judge of those.
    package static func checkForLoading(cfg: URL, weights: URL) throws -> (width: Int, height: Int, channels: Int) {
        let text = try readText(cfg)
        let input = try inputSize(text: text, fileName: cfg.lastPathComponent)
        let config: DarknetConfig
        do {
            config = try DarknetConfig(text: text, fileName: cfg.lastPathComponent)
        } catch let error as ConversionError where error.code == .unsupported || error.code == .missingKey {
            return input
        }
        try DarknetWeights.check(weights, config: config)
        return input
    }
}
