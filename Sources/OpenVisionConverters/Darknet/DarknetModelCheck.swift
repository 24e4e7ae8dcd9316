import Foundation

extension DarknetConfig {
    /// Checks a `.cfg` + `.weights` pair before it is handed to another Darknet reader (OpenCV's
    /// importer in OpenVision), which would otherwise trap, allocate without bound, or run on
    /// truncated weights as if they were zeros. Returns the `[net]` input size when the `[net]`
    /// section gives it.
    ///
    /// - When the converter's parser reads the whole network, every value and derived size must
    ///   be within `DarknetLimits` and the `.weights` file must hold exactly the floats the `.cfg`
    ///   needs (its header and size are read, not its floats).
    /// - Otherwise (layers or options only the other reader supports, keys left to its defaults,
    ///   a key set twice) that reader is the judge of the network, but every section's sizes
    ///   (`boundedKeys`) must still be within the limits, and a `.cfg` that is not `key=value`
    ///   sections is an error.
    package static func checkForLoading(cfg: URL, weights: URL) throws -> (width: Int, height: Int, channels: Int)? {
        let text = try readText(cfg)
        let fileName = cfg.lastPathComponent
        let config: DarknetConfig
        do {
            config = try DarknetConfig(text: text, fileName: fileName)
        } catch let error as ConversionError where error.code != .limitExceeded {
            let sections = try DarknetSection.parse(text, fileName: fileName, lastKeyWins: true)
            try checkBounds(sections, fileName: fileName)
            guard let net = sections.first, net.name == "net" || net.name == "network" else { return nil }
            return try? inputSize(net)
        }
        try DarknetWeights.check(weights, config: config)
        return (config.width, config.height, config.channels)
    }

    /// The keys whose values size a layer, with their bounds, checked in every section of a
    /// network the converter does not read in full.
    static let boundedKeys: [(key: String, max: Int)] = [
        ("width", DarknetLimits.maxSide), ("height", DarknetLimits.maxSide),
        ("channels", DarknetLimits.maxChannels), ("filters", DarknetLimits.maxChannels),
        ("groups", DarknetLimits.maxChannels), ("size", DarknetLimits.maxKernel),
        ("stride", DarknetLimits.maxKernel), ("stride_x", DarknetLimits.maxKernel),
        ("stride_y", DarknetLimits.maxKernel), ("dilation", DarknetLimits.maxKernel),
        ("padding", DarknetLimits.maxPadding), ("classes", DarknetLimits.maxClasses),
        ("num", DarknetLimits.maxAnchors),
    ]

    /// Throws `limitExceeded` for too many sections or a `boundedKeys` value out of its bounds;
    /// values that are not integers are left to the reader that understands the network.
    static func checkBounds(_ sections: [DarknetSection], fileName: String) throws {
        guard sections.count <= DarknetLimits.maxLayers + 1 else {
            throw ConversionError(.limitExceeded, "the cfg has \(sections.count - 1) layers, more than "
                                  + "\(DarknetLimits.maxLayers)", file: fileName)
        }
        for section in sections {
            for (key, max) in boundedKeys where section.has(key) {
                do {
                    _ = try section.int(key, max: max)
                } catch let error as ConversionError where error.code != .limitExceeded {
                    continue
                }
            }
        }
    }
}
