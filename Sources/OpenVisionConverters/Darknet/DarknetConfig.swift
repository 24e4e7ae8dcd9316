import Foundation

/// A parsed and checked Darknet `.cfg`: every value and derived size within `DarknetLimits`, every
/// layer index pointing at an earlier layer, every shape consistent, for one `DarknetReader`.
/// This is the one validator of `.cfg` files: `models convert` builds its graph from it, and
/// OpenVision runs it (`reader: .openCV`) before OpenCV reads a file (`checkForLoading`).
package struct DarknetConfig: Sendable {
    /// The file name used in error messages.
    package var fileName: String
    /// The reader the network was checked for.
    package var reader: DarknetReader
    /// Network input width and height in pixels, from `[net]` (OpenCV's reader: 416 when absent).
    package var width: Int
    package var height: Int
    package var channels: Int
    package var layers: [DarknetLayer]
    /// Floats the `.weights` file holds after its header: every convolution's (and `[connected]`
    /// layer's), summed (≤ `DarknetLimits.maxWeightFloats`).
    package private(set) var weightFloatCount: Int

    /// Reads and parses a `.cfg` file.
    package static func load(_ url: URL, reader: DarknetReader = .converter) throws -> DarknetConfig {
        try DarknetConfig(text: readText(url), fileName: url.lastPathComponent, reader: reader)
    }

    /// The text of a `.cfg` file (UTF-8, else Latin-1), at most `DarknetLimits.maxCfgBytes`.
    package static func readText(_ url: URL) throws -> String {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= DarknetLimits.maxCfgBytes else {
                throw ConversionError(
                    .limitExceeded,
                    "the cfg is \(size) bytes, more than the \(DarknetLimits.maxCfgBytes) "
                        + "a network description can take", file: url.path)
            }
            data = try Data(contentsOf: url)
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.unreadable(url, what: "cfg", error)
        }
        guard data.count <= DarknetLimits.maxCfgBytes else {
            throw ConversionError(
                .limitExceeded, "the cfg is more than \(DarknetLimits.maxCfgBytes) bytes", file: url.path)
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw ConversionError(.syntax, "the cfg is not text", file: url.path)
        }
        return text
    }

    /// Parses and checks `.cfg` text for `reader`. `fileName` only appears in error messages.
    package init(text: String, fileName: String = "network.cfg", reader: DarknetReader = .converter) throws {
        self.fileName = fileName
        self.reader = reader
        let sections = try DarknetSection.parse(text, fileName: fileName, lastKeyWins: reader == .openCV)
        let net: DarknetSection
        let layerSections: [DarknetSection]
        switch reader {
        case .converter:
            guard let first = sections.first, first.name == "net" || first.name == "network" else {
                let line = sections.first?.line ?? 1
                throw ConversionError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
            }
            net = first
            layerSections = Array(sections.dropFirst())
            (width, height, channels) = try DarknetConfig.inputSize(net)
        case .openCV:
            // OpenCV reads every `[net]` section's keys into one set (the last value wins) and numbers
            // the other sections as layers 0, 1, ...
            let nets = sections.filter { $0.name == "net" }
            var merged = DarknetSection(name: "net", line: nets.first?.line ?? 1, fileName: fileName)
            for section in nets { merged.options.merge(section.options) { $1 } }
            net = merged
            layerSections = sections.filter { $0.name != "net" }
            width = try net.int("width", default: 416, min: 1, max: DarknetLimits.maxSide)
            height = try net.int("height", default: 416, min: 1, max: DarknetLimits.maxSide)
            channels = try net.int("channels", default: 3, min: 1, max: DarknetLimits.maxChannels)
        }

        var layers: [DarknetLayer] = []
        var shape = DarknetShape(channels: channels, height: height, width: width)
        var weights = 0
        var rows = 0
        for section in layerSections {
            let layer = try DarknetConfig.makeLayer(
                section, index: layers.count, input: shape, previous: layers,
                reader: reader)
            layers.append(layer)
            shape = layer.output
            var layerWeights = 0
            switch layer.kind {
            case .convolutional(let conv): layerWeights = conv.weightFloatCount
            case .connected(let connected): layerWeights = connected.weightFloatCount
            case .yolo(let yolo):
                rows += layer.input.height * layer.input.width * yolo.mask.count  // bounded by maxLayerElements
            case .region(let region):
                rows += layer.input.height * layer.input.width * region.anchors
            default:
                break
            }
            weights += layerWeights  // each ≤ maxWeightFloats: no overflow
            guard weights <= DarknetLimits.maxWeightFloats else {
                throw section.error(
                    .limitExceeded,
                    "the network needs more than \(DarknetLimits.maxWeightFloats) "
                        + "weights by layer \(layer.index)")
            }
            guard rows <= DarknetLimits.maxDetectionRows else {
                throw section.error(
                    .limitExceeded,
                    "the detection heads have \(rows) detection rows by layer "
                        + "\(layer.index), more than \(DarknetLimits.maxDetectionRows)")
            }
        }
        weightFloatCount = weights
        guard !layers.isEmpty else {
            throw ConversionError(.syntax, "the cfg has no layers after [net]", file: fileName, line: net.line)
        }
        self.layers = layers
    }

    /// The `[net]` width, height and channels of `.cfg` text, read without building the layers
    /// (which may use options only OpenCV supports). Bounded like `init(text:)`.
    package static func inputSize(text: String, fileName: String = "network.cfg") throws
        -> (width: Int, height: Int, channels: Int)
    {
        let sections = try DarknetSection.parse(text, fileName: fileName)
        guard let net = sections.first, net.name == "net" || net.name == "network" else {
            let line = sections.first?.line ?? 1
            throw ConversionError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
        }
        return try inputSize(net)
    }

    static func inputSize(_ net: DarknetSection) throws -> (width: Int, height: Int, channels: Int) {
        (
            try net.int("width", min: 1, max: DarknetLimits.maxSide),
            try net.int("height", min: 1, max: DarknetLimits.maxSide),
            try net.int("channels", default: 3, min: 1, max: DarknetLimits.maxChannels)
        )
    }
}
