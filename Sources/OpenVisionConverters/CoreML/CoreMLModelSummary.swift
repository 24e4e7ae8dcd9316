import Foundation

/// What a Core ML model declares, read without running it, for `openvision models info`: its description
/// (`CoreMLModelInfo`), its layers by type with those the converter does not support, how its weights are stored,
/// and whether it converts (the conversion's error otherwise).
package struct CoreMLModelSummary: Sendable {
    package var info: CoreMLModelInfo
    /// "type 'name'" of each layer the converter does not support.
    package var unsupportedLayers: [String]
    /// Why the model does not convert, or nil when it does.
    package var conversionError: String?
    /// True when the conversion was refused by a bound (`.limitExceeded`: what it would materialise, its layer or
    /// node counts): the file is hostile or beyond what this machine should load, not merely unsupported.
    package var conversionRefused = false
    /// "Class 'layer'" of each custom layer (`MLCustomLayer`): they run only with the app's class registered.
    package var customLayers: [String] = []

    /// Weight fields (`WeightParams`) per layer type, for the weight formats of a model that does not convert.
    static let weightFields: [Int: [Int]] = [
        100: [90, 91], 140: [20, 21], 150: [20, 21], 160: [15, 16, 17, 18], 245: [2, 5], 250: [2], 290: [2],
        1040: [20, 21], 1045: [8, 9], 1070: [2], 1350: [3, 4],
    ]

    /// Reads the model at `url`; throws `ConversionError` when it cannot be read at all (not a Core ML model).
    package init(contentsOf url: URL) throws {
        let source = try CoreMLSource.open(url)
        switch source {
        case .compiled, .compiledProgram:
            let conversion = try CoreMLConverter.conversion(contentsOf: url)
            self.init(info: conversion.info, unsupportedLayers: [], conversionError: nil)
        case .model(let bytes, let root):
            self.init(
                spec: try CoreMLSpec(bytes: bytes), name: url.deletingPathExtension().lastPathComponent, root: root)
        case .xcode(let folder):
            self.init(
                spec: try XcodeCompiledFolder.spec(at: folder), name: url.deletingPathExtension().lastPathComponent,
                root: folder)
        }
    }

    /// A model read: its conversion's description, or, when it does not convert, what it declares and why.
    private init(spec: CoreMLSpec, name: String, root: URL?) {
        do {
            let conversion = try CoreMLConverter.conversion(
                spec: spec, name: name, blob: CoreMLSource.blobReader(root: root))
            self.init(info: conversion.info, unsupportedLayers: [], conversionError: nil)
        } catch {
            var info = CoreMLConverter.makeInfo(spec, builder: nil)
            var unsupported: [String] = []
            var formats = Set<NeuralNetworkWeights.Format>()
            Self.scan(spec, counts: &info.layerCounts, unsupported: &unsupported, formats: &formats)
            info.weightFormats = formats.sorted().map(\.description)
            self.init(
                info: info, unsupportedLayers: unsupported,
                conversionError: (error as? ConversionError)?.message ?? "\(error)")
            conversionRefused = (error as? ConversionError)?.code == .limitExceeded
        }
        customLayers = Self.customLayers(spec)
    }

    /// "Class 'layer'" of every custom layer in `spec`'s networks.
    static func customLayers(_ spec: CoreMLSpec) -> [String] {
        switch spec.kind {
        case .neuralNetwork(let nn):
            return nn.bytes.withUnsafeBytes { raw in
                nn.layers.filter { $0.typeField == 500 }.map { layer in
                    guard layer.parameters.upperBound <= raw.count,
                        let params = try? ProtoMessage(raw[layer.parameters], context: layer.name),
                        let className = try? params.string(10)
                    else { return "? '\(layer.name)'" }
                    return "\(className) '\(layer.name)'"
                }
            }
        case .pipeline(let p): return p.models.flatMap(customLayers)
        default: return []
        }
    }

    private init(info: CoreMLModelInfo, unsupportedLayers: [String], conversionError: String?) {
        self.info = info
        self.unsupportedLayers = unsupportedLayers
        self.conversionError = conversionError
    }

    /// Layer counts, unsupported layers and weight formats of every network in `spec`.
    static func scan(
        _ spec: CoreMLSpec, counts: inout [String: Int], unsupported: inout [String],
        formats: inout Set<NeuralNetworkWeights.Format>
    ) {
        switch spec.kind {
        case .neuralNetwork(let nn):
            nn.bytes.withUnsafeBytes { raw in
                for layer in nn.layers {
                    counts[layer.typeName, default: 0] += 1
                    if !NeuralNetworkToONNX.supportedLayerTypes.contains(layer.typeField) {
                        unsupported.append("\(layer.typeName) '\(layer.name)'")
                    }
                    guard let fields = weightFields[layer.typeField], layer.parameters.upperBound <= raw.count,
                        let params = try? ProtoMessage(raw[layer.parameters], context: layer.name)
                    else { continue }
                    for f in fields {
                        if let m = try? params.message(f, "weights"), let format = try? NeuralNetworkWeights.format(m) {
                            formats.insert(format)
                        }
                    }
                }
            }
        case .pipeline(let p):
            for model in p.models { scan(model, counts: &counts, unsupported: &unsupported, formats: &formats) }
        case .nonMaximumSuppression:
            counts["nonMaximumSuppression", default: 0] += 1
        case .mlProgram(let bytes):
            counts["mlProgram", default: 0] += 1
            if let program = try? CoreMLProgramBridge.summary(serialized: bytes) {
                for (op, n) in program.opCounts { counts["mil." + op, default: 0] += n }
            }
        case .compiledProgram(let program, _):
            counts["mlProgram", default: 0] += 1
            for (op, n) in program.summary.opCounts { counts["mil." + op, default: 0] += n }
        case .classic(let model):
            counts[model.type.rawValue, default: 0] += 1
        case .identity, .other:
            break
        }
    }
}
