import Foundation

/// Converts Core ML models — `.mlmodel` files, `.mlpackage` folders and compiled `.mlmodelc` folders — to
/// ONNX for ONNX Runtime.
///
/// Neural networks (`neuralNetwork`, `…Classifier`, `…Regressor`, specification versions 1–9, old rank-5
/// and N-D ones) are converted layer by layer (`NeuralNetworkToONNX`; the supported layers are listed in
/// docs/coreml.md); ML Programs through the MIL side (`CoreMLProgramBridge`); `nonMaximumSuppression` with
/// ONNX's NonMaxSuppression; pipelines of them in order. Weights stored as float16 or quantized (linear,
/// lookup tables of 1–8 bits, int8) become float32 initializers. Graph inputs and outputs keep Core ML's
/// feature names; a classifier gives its probabilities as `[1, classes]` under its probabilities' name;
/// `metadata_props` hold `source` = `coreml`, `coreml` (the `CoreMLModelInfo` JSON: description, labels, image
/// preprocessing, image outputs, NMS settings), `labels` (a JSON list), `mean`/`std`/`color_order`/`input_size` (OpenVision's
/// preprocessing of the first image input), and the model's `description`, `author`, `license`, `version`.
///
/// Errors are `ConversionError`s: `.syntax` / `.invalidValue` / `.limitExceeded` for malformed or impossible
/// files, `.unsupported` naming the layer type and the layer (or the model type) that is not converted,
/// `.io` for unreadable files. What a conversion materialises is bounded as a whole (`ConversionBudget`: the model
/// memory limit over the sum of its decoded weights, constants and weight files), as are its layers and ops
/// (`CoreMLLimits.layers`, `MILLimits.maximumOperations`).
public enum CoreMLConverter {
    /// The `ai.onnx` operator-set version of the graphs written.
    public static let opsetVersion = 17
    /// Changes whenever the graphs written for the same file change: caches of converted models key on it
    /// with the file's content hash.
    /// 4: an ML Program's grayscale image input takes the luma of the pixels (it was given the RGB planes), a BGR
    /// one its pixels in BGR order (it was given RGB). 5: a grayscale network input's own scaler is in the description
    /// (`graphScale`, `graphBias`); an old `softmax` of rank 1 or 2 runs along its last axis (it was refused).
    /// 6: Core ML's classic model types (GLM, tree ensembles, SVM, kNN, feature engineering) converted; double,
    /// int64, string and dictionary inputs of classic models are graph inputs of their types.
    /// 7: custom layers (`MLCustomLayer`) converted to `CustomLayer` nodes run by the app's registered class.
    public static let revision = 7

    /// A conversion's ONNX model and what the Core ML model declared.
    package struct Conversion: Sendable {
        package var onnx: Data
        package var info: CoreMLModelInfo
        /// An updatable model's own file (its `Model` message), kept beside the ONNX file in a compiled folder
        /// (`updatable.mlmodel`) so that `MLUpdateTask` can update the compiled model; nil for other models.
        package var updatableSpecification: [UInt8]? = nil
    }

    /// Converts the Core ML model at `url` to an ONNX file at `output`.
    public static func convert(_ url: URL, to output: URL) throws {
        try ONNXFile.write(try onnxData(contentsOf: url), to: output)
    }

    /// The serialized ONNX model of the Core ML model at `url`.
    public static func onnxData(contentsOf url: URL) throws -> Data {
        try conversion(contentsOf: url).onnx
    }

    /// The serialized ONNX model of `.mlmodel` bytes (ML Program weights must be inline).
    public static func onnxData(bytes: [UInt8], name: String = "coreml") throws -> Data {
        try conversion(bytes: bytes, name: name, blob: CoreMLSource.blobReader(root: nil)).onnx
    }

    /// Converts the model at `url` (any of the three forms).
    package static func conversion(contentsOf url: URL) throws -> Conversion {
        try ConversionBudget.scope { try convertFile(url) }
    }

    private static func convertFile(_ url: URL) throws -> Conversion {
        let name = url.deletingPathExtension().lastPathComponent
        let source = try CoreMLSource.open(url)
        do {
            switch source {
            case .model(let bytes, let root):
                return try conversion(bytes: bytes, name: name, blob: CoreMLSource.blobReader(root: root))
            case .compiled(let onnx, let info):
                let text = String(decoding: try CoreMLSource.read(info, what: "coreml.json"), as: UTF8.self)
                return Conversion(
                    onnx: Data(try CoreMLSource.read(onnx, what: "model.onnx")), info: try CoreMLModelInfo.decode(text))
            case .xcode(let folder):
                return try conversion(
                    spec: try XcodeCompiledFolder.spec(at: folder), name: name,
                    blob: CoreMLSource.blobReader(root: folder))
            case .compiledProgram(let mil, let root, let metadata):
                return try CompiledProgram(mil: mil, root: root, metadata: metadata).conversion(name: name)
            }
        } catch let error as ConversionError where error.file == nil {
            throw ConversionError(error.code, error.message, file: url.path)
        }
    }

    /// Converts `.mlmodel` bytes; `blob` reads ML Program weight files.
    package static func conversion(bytes: [UInt8], name: String, blob: @escaping (String) throws -> [UInt8]) throws
        -> Conversion
    {
        let spec = try CoreMLSpec(bytes: bytes)
        var result = try conversion(spec: spec, name: name, blob: blob)
        if spec.isUpdatable { result.updatableSpecification = bytes }
        return result
    }

    package static func conversion(spec: CoreMLSpec, name: String, blob: @escaping (String) throws -> [UInt8]) throws
        -> Conversion
    {
        try ConversionBudget.scope { try convertSpec(spec, name: name, blob: blob) }
    }

    private static func convertSpec(_ spec: CoreMLSpec, name: String, blob: @escaping (String) throws -> [UInt8]) throws
        -> Conversion
    {
        var builder = CoreMLToONNX(name: name, blob: blob)
        builder.graph.docString =
            "Converted by openvision from the Core ML model \(name) (\(spec.typeName), specification \(spec.specificationVersion))"
        try builder.convert(spec)
        let info = makeInfo(spec, builder: builder)
        var model = ONNXWriter.Model(
            opsetVersion: opsetVersion, producerName: "openvision", graph: builder.graph,
            metadata: metadata(info))
        if builder.usesONNXML { model.domainOpsets = [("ai.onnx.ml", CoreMLToONNX.onnxMLOpset)] }
        if !builder.customLayers.isEmpty {
            model.domainOpsets.append((CoreMLCustomLayer.domain, 1))
            model.metadata.append((CoreMLCustomLayer.metadataKey, CoreMLCustomLayer.encode(builder.customLayers)))
        }
        return Conversion(onnx: model.serialized(), info: info)
    }

    // MARK: Description

    static func makeInfo(_ spec: CoreMLSpec, builder: CoreMLToONNX?) -> CoreMLModelInfo {
        let d = spec.description
        var info = CoreMLModelInfo(
            converterRevision: revision, specificationVersion: spec.specificationVersion, modelType: spec.typeName,
            inputs: d.inputs.map(CoreMLModelInfo.Feature.init), outputs: d.outputs.map(CoreMLModelInfo.Feature.init),
            predictedFeatureName: d.predictedFeatureName, predictedProbabilitiesName: d.predictedProbabilitiesName,
            metadata: CoreMLModelInfo.Metadata(d.metadata),
            classLabels: classLabels(spec, programs: builder?.programLabels ?? [:]))
        if case .pipeline(let p) = spec.kind { info.submodels = p.models.map(\.typeName) }
        if let nms = nmsSpec(spec) {
            info.nms = CoreMLModelInfo.NMS(
                iouThreshold: nms.iouThreshold, confidenceThreshold: nms.confidenceThreshold, perClass: nms.perClass,
                iouThresholdInput: d.inputs.contains { $0.name == nms.iouThresholdInputFeatureName }
                    ? nms.iouThresholdInputFeatureName : "",
                confidenceThresholdInput: d.inputs.contains { $0.name == nms.confidenceThresholdInputFeatureName }
                    ? nms.confidenceThresholdInputFeatureName : "",
                confidenceOutput: nms.confidenceOutputFeatureName.isEmpty
                    ? "confidence" : nms.confidenceOutputFeatureName,
                coordinatesOutput: nms.coordinatesOutputFeatureName.isEmpty
                    ? "coordinates" : nms.coordinatesOutputFeatureName)
        }
        if let builder {
            for input in d.inputs {
                guard case .image(let image) = input.type else { continue }
                let scaler = builder.exposed[input.name] ?? .identity
                let bgr = builder.exposedBGR.contains(input.name)
                let spaceName = CoreMLModelInfo.Feature(input).colorSpace ?? "RGB"
                info.imageInputs[input.name] = CoreMLModelInfo.ImageInput(
                    width: image.width, height: image.height, colorOrder: bgr ? "bgr" : "rgb", scale: scaler.scale,
                    bias: scaler.bias.count == 3 ? scaler.bias : Array(repeating: scaler.bias.first ?? 0, count: 3),
                    colorSpace: spaceName,
                    graphScale: builder.graphScalers[input.name]?.scale,
                    graphBias: builder.graphScalers[input.name]?.bias.first)
            }
            var outputs: [String: CoreMLModelInfo.ImageOutput] = [:]
            for output in d.outputs {
                guard case .image(let image) = output.type else { continue }
                outputs[output.name] = CoreMLModelInfo.ImageOutput(
                    width: image.width, height: image.height, channels: image.channels,
                    colorOrder: image.channels == 1 ? "gray" : image.colorSpace == .bgr ? "bgr" : "rgb",
                    colorSpace: CoreMLModelInfo.Feature(output).colorSpace ?? "RGB",
                    flexible: !image.enumeratedSizes.isEmpty || image.widthRange != nil || image.heightRange != nil)
            }
            if !outputs.isEmpty { info.imageOutputs = outputs }
            info.layerCounts = builder.layerCounts
            info.weightFormats = builder.weightFormats.sorted().map(\.description)
        }
        return info
    }

    /// Labels of the classifier, else of the NMS model (else, for a detector, the metadata's "classes"). An ML
    /// Program's are its `classify` operation's: from `programs` (the labels the conversion read, by sub-model
    /// prefix) when it was lowered, else read from the program.
    static func classLabels(_ spec: CoreMLSpec, programs: [String: [String]] = [:], prefix: String = "") -> [String] {
        switch spec.kind {
        case .neuralNetwork(let nn) where !nn.classLabels.isEmpty: return nn.classLabels
        case .nonMaximumSuppression(let nms) where !nms.classLabels.isEmpty: return nms.classLabels
        case .classic(let model) where model.type.isClassifier:
            return (try? model.classLabels()) ?? []
        case .mlProgram(let bytes):
            let labels = programs[prefix] ?? (try? CoreMLProgramBridge.summary(serialized: bytes).classLabels) ?? []
            if !labels.isEmpty { return labels }
        case .compiledProgram(let program, _):
            let labels = programs[prefix] ?? program.summary.classLabels
            if !labels.isEmpty { return labels }
        case .pipeline(let p):
            for (i, model) in p.models.enumerated().reversed() {
                let labels = classLabels(
                    model, programs: programs, prefix: CoreMLToONNX.submodelPrefix(p, i, under: prefix))
                if !labels.isEmpty { return labels }
            }
        default: break
        }
        if let classes = spec.description.metadata.userDefined["classes"], !classes.isEmpty {
            return classes.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        return []
    }

    static func nmsSpec(_ spec: CoreMLSpec) -> CoreMLNMSSpec? {
        switch spec.kind {
        case .nonMaximumSuppression(let nms): return nms
        case .pipeline(let p): return p.models.lazy.compactMap(nmsSpec).last
        default: return nil
        }
    }

    /// `metadata_props`: the JSON description and OpenVision's preprocessing keys.
    static func metadata(_ info: CoreMLModelInfo) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = [("source", "coreml"), ("coreml", info.json())]
        if !info.classLabels.isEmpty, let labels = try? JSONEncoder().encode(info.classLabels) {
            result.append(("labels", String(decoding: labels, as: UTF8.self)))
        }
        if let first = info.inputs.first(where: { $0.type == "image" }), let image = info.imageInputs[first.name],
            image.scale != 0
        {
            // OpenVision's (pixel / 255 − mean) / std for y = scale × pixel + bias.
            let std = 1 / (255 * image.scale)
            result.append(("input_size", "[\(image.height), \(image.width)]"))
            result.append(("mean", "[" + image.bias.map { "\(-$0 * std)" }.joined(separator: ", ") + "]"))
            result.append(("std", "[\(std), \(std), \(std)]"))
            result.append(("color_order", image.colorOrder))
        }
        let m = info.metadata
        if !m.shortDescription.isEmpty { result.append(("description", m.shortDescription)) }
        if !m.author.isEmpty { result.append(("author", m.author)) }
        if !m.license.isEmpty { result.append(("license", m.license)) }
        if !m.versionString.isEmpty { result.append(("version", m.versionString)) }
        return result
    }
}
