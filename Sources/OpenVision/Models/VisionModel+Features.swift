import Foundation
internal import OpenVisionConverters

extension VisionModel {
    /// The model's inputs as features: a Core ML model's as its file declares them (images, multi-arrays, numbers,
    /// strings, dictionaries; a detector pipeline's thresholds optional), another model's tensors as multi-arrays.
    public var inputFeatures: [FeatureDescription] {
        if let coreML = modelDescription.coreML { return coreML.inputs.map(Self.feature) }
        return modelDescription.inputs.map {
            FeatureDescription(name: $0.name, kind: .multiArray, shape: $0.shape, dataType: $0.elementType)
        }
    }

    /// The model's outputs as features (see `inputFeatures`).
    public var outputFeatures: [FeatureDescription] {
        if let coreML = modelDescription.coreML { return coreML.outputs.map(Self.feature) }
        return modelDescription.outputs.map {
            FeatureDescription(name: $0.name, kind: .multiArray, shape: $0.shape, dataType: $0.elementType)
        }
    }

    static func feature(_ f: CoreMLModelInfo.Feature) -> FeatureDescription {
        let kind = FeatureDescription.Kind(rawValue: f.type) ?? .invalid
        switch kind {
        case .image:
            return FeatureDescription(
                name: f.name, kind: kind, shape: [f.height, f.width], dataType: f.colorSpace, isOptional: f.optional)
        case .multiArray:
            return FeatureDescription(
                name: f.name, kind: kind, shape: (f.shape ?? []).map { $0 }, dataType: arrayType(f.dataType),
                isOptional: f.optional)
        case .dictionary, .sequence:
            return FeatureDescription(name: f.name, kind: kind, dataType: f.keyType, isOptional: f.optional)
        default:
            return FeatureDescription(name: f.name, kind: kind, isOptional: f.optional)
        }
    }

    /// Core ML's multi-array data type as NumPy's name ("FLOAT32" → "float32", "DOUBLE" → "float64").
    static func arrayType(_ coreML: String?) -> String {
        ["FLOAT32": "float32", "DOUBLE": "float64", "INT32": "int32", "FLOAT16": "float16", "INT8": "int8"][
            coreML ?? "FLOAT32"] ?? "float32"
    }

    /// Runs the model on features by name and returns its outputs by name, as Core ML's `MLModel.prediction(from:)`
    /// does for any model OpenVision loads.
    ///
    /// A Core ML model takes each input as its file declares it: an image (fitted as `makeInput(from:)` fits it; one
    /// image input per model), a multi-array of the input's shape (any numeric type; a number for a one-element array),
    /// a number (double and int64 inputs take either), a string, a dictionary; a detector pipeline's thresholds are
    /// optional. It gives each output as Core ML types it: a number, a string (a classifier's label), a dictionary (a
    /// classifier's probabilities by label), an image, or a multi-array in its declared data type (FLOAT16 as float32).
    /// Another model (ONNX, TFLite, Darknet) takes a multi-array per input tensor, or an image for its only input, and
    /// gives every output as a multi-array of the type its runtime gives.
    ///
    /// Throws `invalidArgument` naming the input for an unknown, missing or mistyped input (with the model's inputs in
    /// the message), and the model's errors.
    public func prediction(features inputs: [String: FeatureValue]) throws(VisionError) -> [String: FeatureValue] {
        let declared = inputFeatures
        let list = declared.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
        if let unknown = inputs.keys.sorted().first(where: { name in !declared.contains { $0.name == name } }) {
            throw VisionError(
                .invalidArgument, "\(url.lastPathComponent) has no input '\(unknown)'; its inputs: \(list)")
        }
        guard let coreML = modelDescription.coreML else { return try tensorPrediction(inputs, list: list) }
        var values: [ONNXRuntimeBackend.Value] = []
        var overrides: [String: Float] = [:]
        let overridable = backend.overridableInputs
        for (feature, info) in zip(declared, coreML.inputs) {
            let name = feature.name
            guard let given = inputs[name] else {
                if overridable.contains(name) || feature.isOptional { continue }
                throw VisionError(
                    .invalidArgument,
                    "\(url.lastPathComponent) needs the input '\(name)' (\(describe(feature))); "
                        + "its inputs: \(list)")
            }
            if overridable.contains(name) {
                guard let number = Self.number(given) else { throw mistyped(name, feature, given) }
                overrides[name] = Float(number)
                values.append(.array(name, try MultiArray(shape: [1], elements: .float64([number]))))
                continue
            }
            values.append(try value(for: feature, info: info, given: given, list: list))
        }
        let outputs = try run(values, overrides: overrides)
        return try coreMLOutputs(outputs, coreML)
    }

    /// The graph input for Core ML input `feature` given `given`.
    private func value(
        for feature: FeatureDescription, info: CoreMLModelInfo.Feature, given: FeatureValue,
        list: String
    ) throws(VisionError) -> ONNXRuntimeBackend.Value {
        let name = feature.name
        let graphType = modelDescription.inputs.first(where: { $0.name == name })?.elementType ?? "float32"
        switch (feature.kind, given) {
        case (.image, .image(let image)):
            guard modelDescription.inputs.first?.name == name, declaredImages == 1 else {
                throw VisionError(
                    .unsupported,
                    "\(url.lastPathComponent) takes \(declaredImages) images; OpenVision feeds one "
                        + "image input per model")
            }
            return .array(name, MultiArray(try makeInput(from: image).0))
        case (.multiArray, .multiArray(let array)):
            guard let converted = array.converted(to: graphType) else { throw mistyped(name, feature, given) }
            return .array(name, try fitted(converted, to: name))
        case (.multiArray, .double), (.multiArray, .int64):
            let shape = modelDescription.inputs.first(where: { $0.name == name })?.shape.map { $0 ?? 1 } ?? [1]
            guard shape.reduce(1, *) == 1,
                let array = try MultiArray(shape: shape, elements: .float64([Self.number(given)!]))
                    .converted(to: graphType)
            else { throw mistyped(name, feature, given) }
            return .array(name, array)
        case (.double, _), (.int64, _):
            guard let number = Self.number(given) else { throw mistyped(name, feature, given) }
            if case .int64(let i) = given, graphType == "int64" {
                return .array(name, try MultiArray(shape: [1, 1], elements: .int64([i])))
            }
            guard let array = try MultiArray(shape: [1, 1], elements: .float64([number])).converted(to: graphType)
            else {
                throw mistyped(name, feature, given)
            }
            return .array(name, array)
        case (.string, .string(let s)):
            return .array(name, try MultiArray(shape: [1, 1], elements: .string([s])))
        case (.dictionary, .stringDictionary(let d)) where info.keyType != "int64":
            return .stringMap(name, d)
        case (.dictionary, .int64Dictionary(let d)) where info.keyType == "int64":
            return .int64Map(name, d)
        default:
            throw mistyped(name, feature, given)
        }
    }

    /// `array` in the shape of graph input `name` when it has as many elements and the graph's shape is fixed (Core ML's
    /// `[n]` for a classic model's `[1, n]` row); otherwise as it is.
    private func fitted(_ array: MultiArray, to name: String) throws(VisionError) -> MultiArray {
        guard let dims = modelDescription.inputs.first(where: { $0.name == name })?.shape,
            dims.allSatisfy({ $0 != nil })
        else { return array }
        let shape = dims.map { $0! }
        guard shape != array.shape, shape.reduce(1, *) == array.count else { return array }
        return try MultiArray(shape: shape, elements: array.elements)
    }

    private var declaredImages: Int { modelDescription.coreML?.inputs.filter { $0.type == "image" }.count ?? 0 }

    /// Runs the backend: ONNX Runtime with typed values, another backend (OpenCV DNN) with float32 tensors in input order.
    private func run(_ values: [ONNXRuntimeBackend.Value], overrides: [String: Float]) throws(VisionError) -> [(
        name: String, value: MultiArray
    )] {
        if let ort = backend as? ONNXRuntimeBackend { return try ort.run(values: values) }
        var tensors: [Tensor] = []
        for input in modelDescription.inputs {
            guard case .array(_, let array)? = values.first(where: { $0.name == input.name }), let floats = array.floats
            else {
                throw VisionError(
                    .unsupported,
                    "\(url.lastPathComponent): input '\(input.name)' needs ONNX Runtime "
                        + "(\(backend.name) runs float32 tensors only)")
            }
            tensors.append(Tensor(name: input.name, shape: array.shape, scalars: floats))
        }
        return try backend.run(tensors, overriding: overrides).map { ($0.name, MultiArray($0)) }
    }

    /// Core ML's outputs from the graph's (see `prediction(features:)`).
    private func coreMLOutputs(_ raw: [(name: String, value: MultiArray)], _ coreML: CoreMLModelInfo)
        throws(VisionError) -> [String: FeatureValue]
    {
        var byName: [String: MultiArray] = [:]
        for (name, value) in raw { byName[name] = value }
        var result: [String: FeatureValue] = [:]
        for output in coreML.outputs {
            let name = output.name
            let value = byName[name]
            if value == nil, name == coreML.predictedFeatureName, output.type == "string" || output.type == "int64" {
                // A neural network classifier's label: the first most probable class.
                guard let scores = byName[coreML.predictedProbabilitiesName]?.floats, !scores.isEmpty,
                    scores.count == coreML.classLabels.count
                else { throw missing(name) }
                var best = 0
                for (i, p) in scores.enumerated() where p > scores[best] { best = i }
                let label = coreML.classLabels[best]
                result[name] = output.type == "int64" ? .int64(Int64(label) ?? Int64(best)) : .string(label)
                continue
            }
            switch output.type {
            case "image":
                guard let value, let floats = value.floats, let image = coreML.imageOutputs?[name] else {
                    throw missing(name)
                }
                result[name] = .image(try VisionImage(modelOutput: name, shape: value.shape, values: floats, as: image))
            case "dictionary":
                guard let value, let scores = value.doubles else { throw missing(name) }
                let labels = coreML.classLabels
                guard scores.count == labels.count else {
                    throw VisionError(
                        .invalidModel,
                        "\(url.lastPathComponent): output '\(name)' has \(scores.count) scores for "
                            + "\(labels.count) labels")
                }
                if output.keyType == "int64" {
                    var d: [Int64: Double] = [:]
                    for (i, label) in labels.enumerated() { d[Int64(label) ?? Int64(i)] = scores[i] }
                    result[name] = .int64Dictionary(d)
                } else {
                    result[name] = .stringDictionary(Dictionary(zip(labels, scores), uniquingKeysWith: { a, _ in a }))
                }
            case "string":
                guard let value, case .string(let s) = value.elements, let first = s.first else { throw missing(name) }
                result[name] = .string(first)
            case "int64":
                guard let value, let first = value.doubles?.first else { throw missing(name) }
                if case .int64(let i) = value.elements {
                    result[name] = .int64(i[0])
                } else {
                    result[name] = .int64(Int64(first.rounded()))
                }
            case "double":
                guard let value, let first = value.doubles?.first else { throw missing(name) }
                result[name] = .double(first)
            default:
                guard var value else { throw missing(name) }
                let type = Self.arrayType(output.dataType)
                if let shape = output.shape, !shape.isEmpty, shape != value.shape, shape.reduce(1, *) == value.count {
                    // a classic model's [1, n] row as [n]
                    value = try MultiArray(shape: shape, elements: value.elements)
                }
                result[name] = .multiArray(
                    value.converted(to: type == "float16" || type == "int8" ? "float32" : type) ?? value)
            }
        }
        return result
    }

    /// Another format's prediction: a multi-array per input tensor (an image for a one-input model), every output as
    /// a multi-array.
    private func tensorPrediction(_ inputs: [String: FeatureValue], list: String) throws(VisionError) -> [String:
        FeatureValue]
    {
        var values: [ONNXRuntimeBackend.Value] = []
        for (i, input) in modelDescription.inputs.enumerated() {
            let feature = FeatureDescription(
                name: input.name, kind: .multiArray, shape: input.shape, dataType: input.elementType)
            switch inputs[input.name] {
            case .image(let image)? where i == 0 && modelDescription.inputs.count == 1:
                values.append(.array(input.name, MultiArray(try makeInput(from: image).0)))
            case .multiArray(let array)?:
                guard let converted = array.converted(to: input.elementType) else {
                    throw mistyped(input.name, feature, inputs[input.name]!)
                }
                values.append(.array(input.name, converted))
            case let other?:
                throw mistyped(input.name, feature, other)
            case nil:
                throw VisionError(
                    .invalidArgument,
                    "\(url.lastPathComponent) needs the input '\(input.name)' (\(describe(feature))); "
                        + "its inputs: \(list)")
            }
        }
        var result: [String: FeatureValue] = [:]
        for (name, value) in try run(values, overrides: [:]) { result[name] = .multiArray(value) }
        return result
    }

    private static func number(_ value: FeatureValue) -> Double? {
        switch value {
        case .double(let d): d
        case .int64(let i): Double(i)
        default: nil
        }
    }

    private func describe(_ f: FeatureDescription) -> String {
        switch f.kind {
        case .image: return "an image of \(f.shape.count == 2 ? "\(f.shape[1] ?? 0) × \(f.shape[0] ?? 0)" : "any size")"
        case .multiArray:
            let dims = f.shape.map { $0.map(String.init) ?? "?" }.joined(separator: " × ")
            return "a \(dims.isEmpty ? "" : dims + " ")\(f.dataType ?? "float32") multi-array"
        case .dictionary: return "a dictionary of \(f.dataType ?? "string") keys to numbers"
        case .int64: return "an integer"
        case .double: return "a number"
        default: return "a \(f.kind.rawValue)"
        }
    }

    private func mistyped(_ name: String, _ feature: FeatureDescription, _ given: FeatureValue) -> VisionError {
        VisionError(
            .invalidArgument,
            "input '\(name)' of \(url.lastPathComponent) takes \(describe(feature)), not "
                + "\(given.kind == .image ? "an image" : "a \(given.kind.rawValue)")")
    }

    private func missing(_ name: String) -> VisionError {
        VisionError(.invalidModel, "\(url.lastPathComponent): the converted model gives no usable output '\(name)'")
    }
}
