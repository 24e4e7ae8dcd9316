import Foundation

/// An ML Program's `model.mil` and `weights/weight.bin` in a folder without Xcode's `coremldata.bin` (with it,
/// `XcodeCompiledFolder` reads the folder). The inputs, outputs, labels and metadata come from `metadata.json`
/// (Xcode's `inputSchema` / `outputSchema` / `classLabels` / `userDefinedMetadata`), else from the program's
/// `main` function.
struct CompiledProgram {
    /// `model.mil`, read once: its summary describes the model where metadata.json does not, then it is lowered.
    let program: CoreMLProgramBridge.Program
    let root: URL
    let description: CoreMLModelDescription
    let classLabels: [String]

    /// The text of `model.mil` (`.syntax` unless UTF-8).
    static func text(_ mil: URL) throws -> String {
        guard
            let text = String(
                bytes: try CoreMLSource.read(mil, what: "compiled ML Program (model.mil)"), encoding: .utf8)
        else {
            throw ConversionError(.syntax, "model.mil is not UTF-8 text", file: mil.path)
        }
        return text
    }

    /// `model.mil` read.
    static func read(_ mil: URL) throws -> CoreMLProgramBridge.Program {
        let text = try text(mil)
        do {
            return try CoreMLProgramBridge.program(text: text)
        } catch let error as ConversionError where error.file == nil {
            throw ConversionError(error.code, error.message, file: mil.path)
        }
    }

    init(mil: String, root: URL, metadata: Data?) throws {
        program = try CoreMLProgramBridge.program(text: mil)
        let summary = program.summary
        self.root = root
        var description = CoreMLModelDescription()
        var labels: [String] = []
        if let metadata, let parsed = try? JSONSerialization.jsonObject(with: metadata) {
            let entry = (parsed as? [[String: Any]])?.first ?? (parsed as? [String: Any]) ?? [:]
            description.inputs = (entry["inputSchema"] as? [[String: Any]] ?? []).compactMap(Self.feature)
            description.outputs = (entry["outputSchema"] as? [[String: Any]] ?? []).compactMap(Self.feature)
            description.metadata.shortDescription = entry["shortDescription"] as? String ?? ""
            description.metadata.author = entry["author"] as? String ?? ""
            description.metadata.license = entry["license"] as? String ?? ""
            description.metadata.versionString = entry["version"] as? String ?? ""
            for (k, v) in entry["userDefinedMetadata"] as? [String: Any] ?? [:] {
                description.metadata.userDefined[k] = "\(v)"
            }
            labels = (entry["classLabels"] as? [Any] ?? []).map { "\($0)" }
        }
        if description.inputs.isEmpty || description.outputs.isEmpty {
            func feature(_ v: CoreMLProgramBridge.Summary.Value) -> CoreMLFeature {
                let type: CoreMLFeatureType.MultiArray.DataType =
                    v.dataType == "fp16" ? .float16 : v.dataType == "int32" ? .int32 : .float32
                // A flexible dimension takes the program's default shape where it declares one, else 1.
                let defaults = summary.defaultShapes[v.name]
                let shape = v.shape.enumerated().map { i, d in
                    d ?? (defaults.flatMap { i < $0.count ? $0[i] : nil } ?? 1)
                }
                return CoreMLFeature(name: v.name, type: .multiArray(.init(shape: shape, dataType: type)))
            }
            description.inputs = summary.inputs.map(feature)
            description.outputs = summary.outputs.map(feature)
        }
        if labels.isEmpty { labels = summary.classLabels }
        self.description = description
        classLabels = labels
    }

    /// One entry of Xcode's `inputSchema` / `outputSchema` (values are strings: "224", "[1, 1000]").
    static func feature(_ e: [String: Any]) -> CoreMLFeature? {
        guard let name = e["name"] as? String, !name.isEmpty else { return nil }
        func int(_ key: String) -> Int { Int("\(e[key] ?? "")") ?? 0 }
        let type: CoreMLFeatureType
        switch (e["type"] as? String ?? "").lowercased() {
        case "image":
            let space = (e["colorspace"] as? String ?? "RGB").uppercased()
            let colorSpace: CoreMLFeatureType.Image.ColorSpace =
                space == "BGR" ? .bgr : space.hasPrefix("GRAY") ? .grayscale : .rgb
            type = .image(
                .init(
                    width: min(int("width"), CoreMLLimits.dimension),
                    height: min(int("height"), CoreMLLimits.dimension), colorSpace: colorSpace))
        case "multiarray":
            let shape = "\(e["shape"] ?? "")".split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.map {
                min($0, CoreMLLimits.dimension)
            }
            let dataType = (e["dataType"] as? String ?? "").lowercased()
            let t: CoreMLFeatureType.MultiArray.DataType =
                dataType.contains("16")
                ? .float16 : dataType.contains("int") ? .int32 : dataType.contains("double") ? .double : .float32
            type = .multiArray(.init(shape: Array(shape.prefix(CoreMLLimits.rank)), dataType: t))
        case "double": type = .double
        case "int64": type = .int64
        case "string": type = .string
        case "dictionary": type = .dictionary(stringKeys: "\(e["formattedType"] ?? "")".contains("String"))
        default: type = .invalid
        }
        var f = CoreMLFeature(name: name, type: type)
        f.shortDescription = e["shortDescription"] as? String ?? ""
        f.isOptional = "\(e["isOptional"] ?? "0")" == "1"
        return f
    }

    func conversion(name: String) throws -> CoreMLConverter.Conversion {
        var builder = CoreMLToONNX(name: name, blob: CoreMLSource.blobReader(root: root))
        builder.graph.docString = "Converted by openvision from the compiled ML Program \(name)"
        builder.reserved = Set(description.outputs.map(\.name))
        let spec = CoreMLSpec(
            specificationVersion: 6, description: description, kind: .other("mlProgram (compiled)"), isUpdatable: false)
        for input in description.inputs { try builder.declareInput(input, spec: spec) }
        var inputs: [String: String] = [:]
        for input in description.inputs {
            guard let f = builder.features[input.name] else { continue }
            inputs[input.name] = f.value
            if case .image(let image) = input.type {
                builder.exposed[input.name] = .identity
                if image.colorSpace == .bgr { builder.exposedBGR.insert(input.name) }
                inputs[input.name] = builder.programImage(f.value, image: image, name: input.name)
            }
        }
        let outputs = try CoreMLProgramBridge.lower(
            program, blob: builder.blob, inputs: inputs, into: &builder.graph, prefix: "")
        for output in description.outputs {
            guard let value = outputs[output.name] else {
                throw ConversionError(.syntax, "the program gives no output '\(output.name)'")
            }
            builder.features[output.name] = CoreMLToONNX.Feature(value: value, shape: nil)
        }
        builder.layerCounts["mlProgram", default: 0] += 1
        for output in description.outputs { try builder.declareOutput(output, spec: spec) }
        var info = CoreMLConverter.makeInfo(spec, builder: builder)
        info.modelType = "mlProgram"
        info.classLabels = classLabels
        let model = ONNXWriter.Model(
            opsetVersion: CoreMLConverter.opsetVersion, producerName: "openvision", graph: builder.graph,
            metadata: CoreMLConverter.metadata(info))
        return CoreMLConverter.Conversion(onnx: model.serialized(), info: info)
    }
}
