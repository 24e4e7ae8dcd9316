import Foundation

/// Reads a Core ML model folder compiled by Xcode (`.mlmodelc`) into the `CoreMLSpec` its `.mlmodel` gives, so that it
/// converts as the source file does. Each folder (the top one, and `model0` … `modelN` of a pipeline) has a
/// `coremldata.bin` (`CoreMLCompiledData`) saying which model it is, with its interface, and:
/// - a neural network: the Espresso files (`EspressoNetwork`), rewritten as the Core ML network (`EspressoToCoreML`);
/// - an ML Program: `model.mil` (MIL as text) and `weights/`, lowered by the MIL side;
/// - a pipeline: its sub-models in `model0` … (as many as its `coremldata.bin` says);
/// - a model Xcode stores whole (non-maximum suppression: tag "spec"): that `Model` message;
/// - any other model type: described (`models info`), not converted (`.other`).
package enum XcodeCompiledFolder {
    /// Whether `folder` is one of Xcode's (it has a `coremldata.bin`).
    package static func isXcodeCompiled(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("coremldata.bin").path)
    }

    /// The model of the compiled folder `folder`. Errors are `ConversionError`s naming the file at fault.
    package static func spec(at folder: URL) throws -> CoreMLSpec {
        try spec(at: folder, depth: 0)
    }

    static func spec(at folder: URL, depth: Int) throws -> CoreMLSpec {
        let file = folder.appendingPathComponent("coremldata.bin")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw ConversionError(.syntax, "not a compiled Core ML model: no coremldata.bin", file: folder.path)
        }
        let data: CoreMLCompiledData
        do {
            data = try CoreMLCompiledData(
                bytes: try CoreMLSource.read(
                    file, what: "coremldata.bin",
                    limit: CoreMLCompiledLimits.descriptionFileSize),
                file: "coremldata.bin")
        } catch let error as ConversionError where error.file == nil {
            throw ConversionError(error.code, error.message, file: file.path)
        }
        let descriptionBytes: ArraySlice<UInt8>
        switch data.body {
        case .spec(let model):
            return try CoreMLSpec(bytes: Array(model))
        case .description(let bytes, _):
            descriptionBytes = bytes
        }
        let description = try Array(descriptionBytes).withUnsafeBytes { raw in
            try CoreMLSpec.parseDescription(
                try ProtoMessage(raw[...], context: "\(folder.lastPathComponent)/coremldata.bin description"))
        }
        let kind: CoreMLSpec.Kind
        switch data.modelType {
        case 200, 201, 202:
            guard depth < CoreMLLimits.pipelineDepth else {
                throw ConversionError(
                    .invalidValue, "pipelines nested more than \(CoreMLLimits.pipelineDepth) deep", file: folder.path)
            }
            let count = try data.pipelineModelCount(file: file.path) ?? 0
            var models: [CoreMLSpec] = []
            for i in 0..<count {
                let sub = folder.appendingPathComponent("model\(i)")
                guard FileManager.default.fileExists(atPath: sub.path) else {
                    throw ConversionError(
                        .syntax, "the pipeline has \(count) sub-models but no folder model\(i)", file: folder.path)
                }
                models.append(try spec(at: sub, depth: depth + 1))
            }
            let flavor: CoreMLPipelineSpec.Flavor =
                data.modelType == 202 ? .plain : data.modelType == 200 ? .classifier : .regressor
            kind = .pipeline(CoreMLPipelineSpec(flavor: flavor, models: models, names: []))
        case 303, 403, 500:
            let network = try EspressoNetwork(folder: folder)
            let labels = try data.classifierLabels(file: file.path) ?? []
            let model = try EspressoToCoreML.model(
                network, modelType: data.modelType, specificationVersion: data.specificationVersion,
                description: description, descriptionBytes: descriptionBytes, labels: labels)
            let spec: CoreMLSpec
            do {
                spec = try CoreMLSpec(bytes: model)
            } catch let error as ConversionError where error.file == nil {
                throw ConversionError(error.code, error.message, file: folder.path)
            }
            try checkLayerCounts(spec, folder: folder)
            return spec
        case 502:
            let mil = folder.appendingPathComponent("model.mil")
            guard FileManager.default.fileExists(atPath: mil.path) else {
                throw ConversionError(.syntax, "the compiled ML Program has no model.mil", file: folder.path)
            }
            kind = .compiledProgram(try CompiledProgram.read(mil), root: folder)
        default:
            let name = CoreMLSpec.otherTypeNames[data.modelType] ?? "model type \(data.modelType)"
            kind = .other("\(name) (Xcode-compiled)")
        }
        return CoreMLSpec(
            specificationVersion: data.specificationVersion, description: description, kind: kind, isUpdatable: false)
    }

    /// Xcode's count of the source network's layers by type (`metadata.json`'s `neuralNetworkLayerTypeHistogram`:
    /// "Convolution", "PoolingMax", "ActivationReLU", …), when the folder has it, must be the rewritten network's:
    /// otherwise the Espresso files were read as another network (`.invalidValue`, naming both counts).
    static func checkLayerCounts(_ spec: CoreMLSpec, folder: URL) throws {
        let file = folder.appendingPathComponent("metadata.json")
        guard case .neuralNetwork(let nn) = spec.kind, FileManager.default.fileExists(atPath: file.path) else { return }
        let bytes = try CoreMLSource.read(file, what: "metadata.json", limit: CoreMLCompiledLimits.descriptionFileSize)
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let entry = (parsed as? [[String: Any]])?.first ?? (parsed as? [String: Any]),
            let histogram = entry["neuralNetworkLayerTypeHistogram"] as? [String: Any]
        else { return }
        var xcode: [String: Int] = [:]
        for (name, value) in histogram {
            let type = ["Pooling", "Activation"].first { name.hasPrefix($0) } ?? name
            xcode[type.prefix(1).lowercased() + type.dropFirst(), default: 0] += (value as? NSNumber)?.intValue ?? 0
        }
        let ours = Dictionary(grouping: nn.layers, by: \.typeName).mapValues(\.count)
        guard ours == xcode else {
            let text = { (d: [String: Int]) in
                d.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            throw ConversionError(
                .invalidValue,
                "Xcode counted the source network's layers as \(text(xcode)); the Espresso files give \(text(ours))",
                file: folder.path)
        }
    }
}
