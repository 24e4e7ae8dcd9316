import Foundation

/// Builds the ONNX graph of a parsed TFLite model.
struct TFLiteToONNX {
    /// A constant tensor, decoded to float32 or int64.
    struct Constant {
        var shape: [Int]
        var floats: [Float]?
        var ints: [Int64]?
        var count: Int { floats?.count ?? ints?.count ?? 0 }
    }

    /// The builtin and custom operators `convert` handles (some only on constant inputs: DEQUANTIZE, DENSIFY).
    static let supportedOperators: Set<String> = [
        "ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE", "CONV_2D", "DEPTHWISE_CONV_2D",
        "TRANSPOSE_CONV", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "MAX_POOL_2D", "MEAN", "CONCATENATION", "RESHAPE",
        "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "PAD", "PADV2", "MIRROR_PAD", "RESIZE_BILINEAR",
        "RESIZE_NEAREST_NEIGHBOR",
        "DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "PRELU",
        "HARD_SWISH", "ELU", "EXP", "LOG", "NEG", "ABS", "SQRT", "RSQRT", "SQUARE", "SOFTMAX", "DEQUANTIZE", "DENSIFY",
        "Convolution2DTransposeBias",
    ]

    /// Limit on one tensor's element count (a corrupt shape must not allocate without bound).
    static let maximumElements = 1 << 26

    let model: TFLiteModel
    let name: String
    var graph = ONNXWriter.Graph(name: "tflite")
    /// The ONNX value name of each tensor.
    var names: [String] = []
    var constants: [Int: Constant] = [:]
    var produced = Set<Int>()
    /// NCHW values of 4-D tensors (an NCHW op's result, or a Transpose of the NHWC value).
    var nchwOf: [Int: String] = [:]
    /// Tensors whose value exists only as NCHW so far (`value` writes the Transpose back on demand).
    var pendingNHWC = Set<Int>()
    var scalars: [Float: String] = [:]
    var operatorIndex = 0

    init(model: TFLiteModel, name: String) throws {
        self.model = model
        self.name = name
        var seen = Set<String>()
        for (i, tensor) in model.tensors.enumerated() {
            var n = tensor.name.isEmpty ? "tensor_\(i)" : tensor.name
            if seen.contains(n) { n = "\(n)__\(i)" }
            seen.insert(n)
            names.append(n)
        }
    }

    mutating func makeModel() throws -> ONNXWriter.Model {
        graph = ONNXWriter.Graph(name: name)
        graph.docString = "Converted by openvision from the TFLite model \(name)"
        guard model.subgraphCount == 1 else {
            throw ConversionError(
                .unsupported, "has \(model.subgraphCount) subgraphs; only single-graph models are converted")
        }
        guard !model.inputs.isEmpty, !model.outputs.isEmpty else {
            throw ConversionError(.syntax, "the graph declares no inputs or no outputs")
        }
        for t in model.inputs {
            let tensor = model.tensors[t]
            guard tensor.type == .float32 else {
                throw ConversionError(
                    .unsupported,
                    "input '\(tensor.name)' is \(Self.typeName(tensor)); only float32 inputs are converted")
            }
            graph.inputs.append(
                ONNXWriter.ValueInfo(
                    name: names[t], elementType: .float, shape: tensor.shape.map { .value(max($0, 1)) }))
            produced.insert(t)
        }
        for index in model.operators.indices {
            operatorIndex = index
            try convert(model.operators[index], index: index)
        }
        for t in model.outputs {
            let tensor = model.tensors[t]
            guard produced.contains(t) || constants[t] != nil || model.tensors[t].buffer != 0 else {
                throw ConversionError(.syntax, "the output '\(tensor.name)' is computed by no operator")
            }
            guard tensor.type == .float32 else {
                throw ConversionError(
                    .unsupported,
                    "output '\(tensor.name)' is \(Self.typeName(tensor)); only float32 outputs are converted")
            }
            _ = try value(t)
            graph.outputs.append(
                ONNXWriter.ValueInfo(
                    name: names[t], elementType: .float, shape: tensor.shape.map { .value(max($0, 1)) }))
        }
        return ONNXWriter.Model(
            opsetVersion: TFLiteConverter.opsetVersion, producerName: "openvision", graph: graph,
            metadata: metadata())
    }

    func metadata() -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = [("source", "tflite")]
        let input = model.tensors[model.inputs[0]]
        if input.shape.count == 4 { result.append(("input_size", "[\(input.shape[1]), \(input.shape[2])]")) }
        if let bytes = model.metadataBytes("TFLITE_METADATA"), let meta = TFLiteMetadata(bytes: bytes) {
            if let mean = meta.inputMean, let std = meta.inputStd, !mean.isEmpty, !std.isEmpty,
                std.allSatisfy({ $0 != 0 && $0.isFinite }), mean.allSatisfy(\.isFinite)
            {
                func three(_ v: [Float]) -> String {
                    let values = v.count == 3 ? v : Array(repeating: v[0], count: 3)
                    return "[" + values.map { "\($0 / 255)" }.joined(separator: ", ") + "]"
                }
                result.append(("mean", three(mean)))
                result.append(("std", three(std)))
            }
            if let v = meta.name { result.append(("tflite_name", v)) }
            if let v = meta.description, !v.isEmpty { result.append(("description", v)) }
            if let v = meta.author, !v.isEmpty { result.append(("author", v)) }
            if let v = meta.version, !v.isEmpty { result.append(("version", v)) }
            if let v = meta.license, !v.isEmpty { result.append(("license", v)) }
        }
        if let runtime = model.metadataBytes("min_runtime_version") {
            let text = String(decoding: runtime.prefix { $0 != 0 }, as: UTF8.self)
            if !text.isEmpty { result.append(("tflite_min_runtime_version", text)) }
        }
        return result
    }

    static func typeName(_ tensor: TFLiteModel.Tensor) -> String {
        tensor.type?.description ?? "of type \(tensor.rawType)"
    }
}
