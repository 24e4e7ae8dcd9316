import Foundation

/// Converts TensorFlow Lite models (`.tflite`, float32 graphs with float16, sparse or int8 constant
/// weights, such as MediaPipe's) to ONNX for ONNX Runtime.
///
/// The ONNX graph keeps TFLite's boundaries: the same inputs and outputs, by the same names, in
/// the same order and with the same (NHWC) shapes. Convolutions, pooling, resizing and depth/space
/// moves run in ONNX's NCHW layout between `Transpose` nodes, which ONNX Runtime's optimiser
/// cancels between consecutive operations. Constant weights stored as float16, sparse (`DENSIFY`)
/// or per-tensor int8 (`DEQUANTIZE`) become float32 initializers.
///
/// Supported builtins: ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, CONV_2D,
/// DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN,
/// CONCATENATION, RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, PAD, PADV2, MIRROR_PAD (reflect),
/// RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, DEPTH_TO_SPACE, SPACE_TO_DEPTH, LOGISTIC, TANH, RELU,
/// RELU6, RELU_N1_TO_1, LEAKY_RELU, PRELU, HARD_SWISH, ELU, EXP, LOG, NEG, ABS, SQRT, RSQRT, SQUARE,
/// SOFTMAX, DEQUANTIZE and DENSIFY (of constants); MediaPipe's custom `Convolution2DTransposeBias`,
/// `MaxPoolingWithArgmax2D` is not (no model shipped here uses it). Anything else is
/// `ConversionError(.unsupported)` naming the operator and its index.
///
/// `metadata_props`: `source` = `tflite`, `input_size` = `"[<height>, <width>]"`, `mean` and `std`
/// (OpenVision's normalisation on 0...1 pixels, from the file's `NormalizationOptions`; absent when
/// the file has no metadata, which for MediaPipe's models means inputs in 0...1), and the
/// metadata's `description`, `author`, `version`, `license` and `tflite_name` when present.
public enum TFLiteConverter {
    /// The `ai.onnx` operator-set version of the graphs written.
    public static let opsetVersion = 14
    /// Changes whenever the graphs written for the same file change: caches of converted models
    /// key on it with the file's content hash.
    public static let revision = 2

    /// Converts the `.tflite` file at `url` to an ONNX file at `output`.
    public static func convert(_ url: URL, to output: URL) throws {
        let data = try onnxData(contentsOf: url)
        do {
            try data.write(to: output, options: .atomic)
        } catch {
            var isDirectory: ObjCBool = false
            let folder = output.deletingLastPathComponent().path
            let reason = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
                ? error.localizedDescription : "the folder \(folder) does not exist"
            throw ConversionError(.io, "cannot write the ONNX model: \(reason)", file: output.path)
        }
    }

    /// The serialized ONNX model for the `.tflite` file at `url`.
    public static func onnxData(contentsOf url: URL) throws -> Data {
        let model = try TFLiteModel(contentsOf: url)
        do {
            return try onnxData(model: model, name: url.deletingPathExtension().lastPathComponent)
        } catch let error as ConversionError {
            throw ConversionError(error.code, "\(url.lastPathComponent): \(error.message)")
        }
    }

    /// The serialized ONNX model for the `.tflite` bytes `bytes`.
    public static func onnxData(bytes: [UInt8], name: String = "tflite") throws -> Data {
        try onnxData(model: TFLiteModel(bytes: bytes), name: name)
    }

    package static func onnxData(model: TFLiteModel, name: String) throws -> Data {
        var converter = try TFLiteToONNX(model: model, name: name)
        return try converter.makeModel().serialized()
    }
}

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
        "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "PAD", "PADV2", "MIRROR_PAD", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR",
        "DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "PRELU",
        "HARD_SWISH", "ELU", "EXP", "LOG", "NEG", "ABS", "SQRT", "RSQRT", "SQUARE", "SOFTMAX", "DEQUANTIZE", "DENSIFY",
        "Convolution2DTransposeBias",
    ]

    /// Limit on one tensor's element count (a corrupt shape must not allocate without bound).
    static let maximumElements = 1 << 26

    let model: TFLiteModel
    let name: String
    private var graph = ONNXWriter.Graph(name: "tflite")
    /// The ONNX value name of each tensor.
    private var names: [String] = []
    private var constants: [Int: Constant] = [:]
    private var produced = Set<Int>()
    /// NCHW values of 4-D tensors (an NCHW op's result, or a Transpose of the NHWC value).
    private var nchwOf: [Int: String] = [:]
    /// Tensors whose value exists only as NCHW so far (`value` writes the Transpose back on demand).
    private var pendingNHWC = Set<Int>()
    private var scalars: [Float: String] = [:]
    private var operatorIndex = 0

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
            throw ConversionError(.unsupported, "has \(model.subgraphCount) subgraphs; only single-graph models are converted")
        }
        guard !model.inputs.isEmpty, !model.outputs.isEmpty else {
            throw ConversionError(.syntax, "the graph declares no inputs or no outputs")
        }
        for t in model.inputs {
            let tensor = model.tensors[t]
            guard tensor.type == .float32 else {
                throw ConversionError(.unsupported, "input '\(tensor.name)' is \(Self.typeName(tensor)); only float32 inputs are converted")
            }
            graph.inputs.append(ONNXWriter.ValueInfo(name: names[t], elementType: .float, shape: tensor.shape.map { .value(max($0, 1)) }))
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
                throw ConversionError(.unsupported, "output '\(tensor.name)' is \(Self.typeName(tensor)); only float32 outputs are converted")
            }
            _ = try value(t)
            graph.outputs.append(ONNXWriter.ValueInfo(name: names[t], elementType: .float, shape: tensor.shape.map { .value(max($0, 1)) }))
        }
        return ONNXWriter.Model(opsetVersion: TFLiteConverter.opsetVersion, producerName: "openvision", graph: graph,
                                metadata: metadata())
    }

    private func metadata() -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = [("source", "tflite")]
        let input = model.tensors[model.inputs[0]]
        if input.shape.count == 4 { result.append(("input_size", "[\(input.shape[1]), \(input.shape[2])]")) }
        if let bytes = model.metadataBytes("TFLITE_METADATA"), let meta = TFLiteMetadata(bytes: bytes) {
            if let mean = meta.inputMean, let std = meta.inputStd, !mean.isEmpty, !std.isEmpty,
               std.allSatisfy({ $0 != 0 && $0.isFinite }), mean.allSatisfy(\.isFinite) {
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

    // MARK: Operators

    private mutating func convert(_ op: TFLiteModel.Operator, index: Int) throws {
        let code = model.operatorCodes[op.opcodeIndex]
        let opName = code.name
        func unsupported(_ detail: String = "") -> ConversionError {
            ConversionError(.unsupported, "operator \(index) (\(opName)) is not supported\(detail.isEmpty ? "" : ": \(detail)")")
        }
        guard !op.outputs.isEmpty else { throw ConversionError(.syntax, "operator \(index) (\(opName)) has no outputs") }
        let out = op.outputs[0]
        let target = names[out]
        func input(_ k: Int) throws -> Int {
            guard k < op.inputs.count, op.inputs[k] >= 0 else {
                throw ConversionError(.syntax, "operator \(index) (\(opName)) lacks input \(k)")
            }
            return op.inputs[k]
        }
        func optionalInput(_ k: Int) -> Int? {
            k < op.inputs.count && op.inputs[k] >= 0 ? op.inputs[k] : nil
        }

        if code.builtin == TFLiteBuiltin.custom {
            switch code.custom ?? "" {
            case "Convolution2DTransposeBias":
                // MediaPipe's transpose_conv_bias.cc: inputs (input, weights [O, KH, KW, I], bias [O]);
                // custom options: TfLiteTransposeConvParams {padding, stride_width, stride_height} as int32.
                let params = model.customInt32s(op)
                guard params.count >= 3 else { throw unsupported("options of \(params.count * 4) bytes") }
                try transposeConvolution(op, x: try input(0), weights: try input(1), bias: optionalInput(2),
                                         strideW: Int(params[1]), strideH: Int(params[2]), activation: 0, out: out)
            default:
                throw unsupported()
            }
            produced.formUnion(op.outputs)
            return
        }

        switch opName {
        case "ADD", "SUB", "MUL", "DIV":
            let onnx = ["ADD": "Add", "SUB": "Sub", "MUL": "Mul", "DIV": "Div"][opName]!
            try elementwise(onnx, [try input(0), try input(1)], out: out, activation: try model.optionInt8(op, 0))
        case "MAXIMUM", "MINIMUM":
            try elementwise(opName == "MAXIMUM" ? "Max" : "Min", [try input(0), try input(1)], out: out)
        case "SQUARED_DIFFERENCE":
            let d = add("Sub", [try value(try input(0)), try value(try input(1))], "\(target)::diff")
            add("Mul", [d, d], target)
        case "CONV_2D":
            try convolution(op, depthwise: false, out: out)
        case "DEPTHWISE_CONV_2D":
            try convolution(op, depthwise: true, out: out)
        case "TRANSPOSE_CONV":
            // inputs (output_shape, weights [O, KH, KW, I], input, bias?); options 0 padding, 1 stride_w, 2 stride_h, 3 activation.
            try transposeConvolution(op, x: try input(2), weights: try input(1), bias: optionalInput(3),
                                     strideW: Int(try model.optionInt(op, 1)), strideH: Int(try model.optionInt(op, 2)),
                                     activation: try model.optionInt8(op, 3), out: out)
        case "FULLY_CONNECTED":
            try fullyConnected(op, x: try input(0), weights: try input(1), bias: optionalInput(2), out: out)
        case "AVERAGE_POOL_2D", "MAX_POOL_2D":
            try pool(op, average: opName == "AVERAGE_POOL_2D", x: try input(0), out: out)
        case "MEAN":
            let x = try input(0)
            let rank = model.tensors[x].shape.count
            let axes = try intConstant(try input(1), op: index, opName: opName).map { Int($0 < 0 ? $0 + Int64(rank) : $0) }
            guard axes.allSatisfy({ $0 >= 0 && $0 < rank }) else { throw unsupported("axes \(axes) of a rank-\(rank) tensor") }
            let keep = try model.optionBool(op, 0)
            if rank == 4, Set(axes) == [1, 2], nchwOf[x] != nil {
                // Spatial mean of an NCHW value: [N, C, 1, 1] kept, else [N, C] as in NHWC.
                let input = try toNCHW(x)
                try finish(0, out: out, nchwResult: keep, "ReduceMean", [input],
                           [.init("axes", .ints([2, 3])), .init("keepdims", .int(keep ? 1 : 0))])
            } else {
                add("ReduceMean", [try value(x)], target, [.init("axes", .ints(axes)), .init("keepdims", .int(keep ? 1 : 0))])
            }
        case "CONCATENATION":
            let rank = model.tensors[out].shape.count
            var axis = Int(try model.optionInt(op, 0))
            if axis < 0 { axis += rank }
            guard axis >= 0, axis < max(rank, 1) else { throw unsupported("axis \(axis)") }
            let sources = op.inputs.filter { $0 >= 0 }
            let act = try model.optionInt8(op, 1)
            if rank == 4, sources.allSatisfy({ nchwOf[$0] != nil }) {
                let inputs = try sources.map { try toNCHW($0) }
                try finish(act, out: out, nchwResult: true, "Concat", inputs, [.init("axis", .int(Self.nchwAxis[axis]))])
            } else {
                let inputs = try sources.map { try value($0) }
                try finish(act, out: out, nchwResult: false, "Concat", inputs, [.init("axis", .int(axis))])
            }
        case "RESHAPE", "SQUEEZE", "EXPAND_DIMS":
            let shape = model.tensors[out].shape
            let s = int64Initializer("\(target)::shape", shape.map(Int64.init))
            add("Reshape", [try value(try input(0)), s], target)
        case "TRANSPOSE":
            let perm = try intConstant(try input(1), op: index, opName: opName).map(Int.init)
            add("Transpose", [try value(try input(0))], target, [.init("perm", .ints(perm))])
        case "PAD", "PADV2", "MIRROR_PAD":
            let x = try input(0)
            let rank = model.tensors[x].shape.count
            let pads = try intConstant(try input(1), op: index, opName: opName)
            guard pads.count == 2 * rank else { throw unsupported("paddings of \(pads.count) values for rank \(rank)") }
            var padValue: Float = 0
            if opName == "PADV2", let c = optionalInput(2) {
                guard let v = try constant(c)?.floats?.first else { throw unsupported("a non-constant pad value") }
                padValue = v
            }
            // Zero channels appended to a 4-D value (the residual blocks of BlazeFace and the palm detector): a
            // 1 × 1 convolution with identity weights gives the same values and keeps ONNX Runtime's blocked (NCHWc)
            // layout through the Add that follows, where a Pad needs reorders out of and back into it.
            if opName != "MIRROR_PAD", rank == 4, padValue == 0, pads[7] > 0, pads[0..<7].allSatisfy({ $0 == 0 }),
               case let cin = model.tensors[x].shape[3], cin > 0 {
                let cout = cin + Int(pads[7])
                var identity = [Float](repeating: 0, count: cout * cin)
                for c in 0..<cin { identity[c * cin + c] = 1 }
                let w = floatInitializer("\(target)::identity", [cout, cin, 1, 1], identity)
                try finish(0, out: out, nchwResult: true, "Conv", [try toNCHW(x), w], [.init("kernel_shape", .ints([1, 1]))])
                break
            }
            // Padding an NCHW value stays NCHW (ONNX dimension i is NHWC dimension nhwcAxis[i]).
            let inNCHW = rank == 4 && nchwOf[x] != nil
            let order = inNCHW ? Self.nhwcAxis : Array(0..<rank)
            let onnxPads = order.map { pads[2 * $0] } + order.map { pads[2 * $0 + 1] }
            let p = int64Initializer("\(target)::pads", onnxPads)
            var inputs = [inNCHW ? try toNCHW(x) : try value(x), p]
            var attributes: [ONNXWriter.Attribute] = []
            if opName == "PADV2", optionalInput(2) != nil { inputs.append(scalar(padValue)) }
            if opName == "MIRROR_PAD" {
                guard try model.optionInt8(op, 0) == 0 else { throw unsupported("SYMMETRIC mode") }
                attributes.append(.init("mode", .string("reflect")))
            }
            try finish(0, out: out, nchwResult: inNCHW, "Pad", inputs, attributes)
        case "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR":
            try resize(op, bilinear: opName == "RESIZE_BILINEAR", x: try input(0), out: out)
        case "DEPTH_TO_SPACE", "SPACE_TO_DEPTH":
            let block = Int(try model.optionInt(op, 0))
            guard block > 0 else { throw unsupported("block size \(block)") }
            let x = try toNCHW(try input(0))
            var attributes: [ONNXWriter.Attribute] = [.init("blocksize", .int(block))]
            if opName == "DEPTH_TO_SPACE" { attributes.append(.init("mode", .string("DCR"))) }
            try finish(0, out: out, nchwResult: true, opName == "DEPTH_TO_SPACE" ? "DepthToSpace" : "SpaceToDepth", [x], attributes)
        case "LOGISTIC": try elementwise("Sigmoid", [try input(0)], out: out)
        case "TANH": try elementwise("Tanh", [try input(0)], out: out)
        case "RELU": try elementwise("Relu", [try input(0)], out: out)
        case "RELU6": try elementwise("Clip", [try input(0)], extra: [scalar(0), scalar(6)], out: out)
        case "RELU_N1_TO_1": try elementwise("Clip", [try input(0)], extra: [scalar(-1), scalar(1)], out: out)
        case "LEAKY_RELU":
            try elementwise("LeakyRelu", [try input(0)], out: out, attributes: [.init("alpha", .float(try model.optionFloat(op, 0)))])
        case "PRELU": try elementwise("PRelu", [try input(0), try input(1)], out: out)
        case "HARD_SWISH": try elementwise("HardSwish", [try input(0)], out: out)
        case "ELU": try elementwise("Elu", [try input(0)], out: out, attributes: [.init("alpha", .float(1))])
        case "EXP": add("Exp", [try value(try input(0))], target)
        case "LOG": add("Log", [try value(try input(0))], target)
        case "NEG": add("Neg", [try value(try input(0))], target)
        case "ABS": add("Abs", [try value(try input(0))], target)
        case "SQRT": add("Sqrt", [try value(try input(0))], target)
        case "RSQRT":
            let s = add("Sqrt", [try value(try input(0))], "\(target)::sqrt")
            add("Reciprocal", [s], target)
        case "SQUARE":
            let x = try value(try input(0))
            add("Mul", [x, x], target)
        case "SOFTMAX":
            var x = try value(try input(0))
            let beta = try model.optionFloat(op, 0, default: 1)
            if beta != 1 && beta != 0 { x = add("Mul", [x, scalar(beta)], "\(target)::beta") }
            add("Softmax", [x], target, [.init("axis", .int(-1))])
        case "DEQUANTIZE":
            let x = try input(0)
            guard let c = try constants[x] ?? constant(x) else { throw unsupported("only constant tensors are dequantized") }
            let tensor = model.tensors[x]
            guard try Self.elementCount(model.tensors[out].shape, name: model.tensors[out].name) == c.count else {
                throw ConversionError(.syntax, "operator \(index) (DEQUANTIZE) changes the shape \(c.shape) to \(model.tensors[out].shape)")
            }
            if let floats = c.floats {
                constants[out] = Constant(shape: model.tensors[out].shape, floats: floats)
            } else if let ints = c.ints {
                guard tensor.scale.count == 1 else { throw unsupported("per-channel quantization") }
                let scale = tensor.scale[0], zero = Float(tensor.zeroPoint.first ?? 0)
                constants[out] = Constant(shape: model.tensors[out].shape, floats: ints.map { scale * (Float($0) - zero) })
            }
            return
        case "DENSIFY":
            let x = try input(0)
            guard let dense = try densify(x) else { throw unsupported("only constant tensors are densified") }
            constants[out] = dense
            return
        default:
            throw unsupported()
        }
        produced.formUnion(op.outputs)
    }

    /// Conv / depthwise conv: weights [O, KH, KW, I] (depthwise [1, KH, KW, C × M]) → ONNX [O, I/group, KH, KW].
    private mutating func convolution(_ op: TFLiteModel.Operator, depthwise: Bool, out: Int) throws {
        let index = operatorIndex
        let opName = depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D"
        guard op.inputs.count >= 2, op.inputs[0] >= 0, op.inputs[1] >= 0 else {
            throw ConversionError(.syntax, "operator \(index) (\(opName)) lacks inputs")
        }
        let x = op.inputs[0], w = op.inputs[1]
        let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? op.inputs[2] : nil
        let xShape = model.tensors[x].shape
        guard xShape.count == 4, let weights = try constant(w), weights.shape.count == 4, let floats = weights.floats else {
            throw ConversionError(.unsupported, "operator \(index) (\(opName)) is not supported: needs an NHWC input and constant 4-D weights")
        }
        // Conv2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 activation, 4 dilation_w, 5 dilation_h.
        // DepthwiseConv2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 depth_multiplier, 4 activation, 5/6 dilation.
        let same = try model.optionInt8(op, 0) == 0
        let strideW = Int(try model.optionInt(op, 1)), strideH = Int(try model.optionInt(op, 2))
        let act = try model.optionInt8(op, depthwise ? 4 : 3)
        let dilationW = Int(try model.optionInt(op, depthwise ? 5 : 4, default: 1))
        let dilationH = Int(try model.optionInt(op, depthwise ? 6 : 5, default: 1))
        let kh = weights.shape[1], kw = weights.shape[2]
        guard strideW > 0, strideH > 0, dilationW > 0, dilationH > 0, kh > 0, kw > 0 else {
            throw ConversionError(.invalidValue, "operator \(index) (\(opName)) has a zero stride, dilation or kernel")
        }
        let onnxWeights: Constant
        let group: Int
        if depthwise {
            onnxWeights = permute(weights, [3, 0, 1, 2])     // [1, KH, KW, C×M] → [C×M, 1, KH, KW]
            group = xShape[3]
        } else {
            onnxWeights = permute(weights, [0, 3, 1, 2])     // [O, KH, KW, I] → [O, I, KH, KW]
            group = max(1, xShape[3] / max(weights.shape[3], 1))
        }
        let (top, bottom) = same ? Self.samePadding(xShape[1], kh, strideH, dilationH) : (0, 0)
        let (left, right) = same ? Self.samePadding(xShape[2], kw, strideW, dilationW) : (0, 0)
        let target = names[out]
        let wName = floatInitializer("\(target)::weight", onnxWeights.shape, onnxWeights.floats ?? floats)
        var inputs = [try toNCHW(x), wName]
        if let bias { inputs.append(try value(bias)) }
        try finish(act, out: out, nchwResult: true, "Conv", inputs, [
                .init("kernel_shape", .ints([kh, kw])), .init("strides", .ints([strideH, strideW])),
                .init("dilations", .ints([dilationH, dilationW])), .init("pads", .ints([top, left, bottom, right])),
                .init("group", .int(group)),
            ])
    }

    /// Transposed convolution with weights [O, KH, KW, I] and the output size of the output tensor.
    private mutating func transposeConvolution(_ op: TFLiteModel.Operator, x: Int, weights w: Int, bias: Int?,
                                               strideW: Int, strideH: Int, activation: Int8, out: Int) throws {
        let index = operatorIndex
        let opName = model.operatorCodes[op.opcodeIndex].name
        let xShape = model.tensors[x].shape, outShape = model.tensors[out].shape
        guard xShape.count == 4, outShape.count == 4, let weights = try constant(w), weights.shape.count == 4,
              weights.floats != nil, strideW > 0, strideH > 0 else {
            throw ConversionError(.unsupported, "operator \(index) (\(opName)) is not supported: needs NHWC tensors, "
                                  + "constant 4-D weights and positive strides")
        }
        let kh = weights.shape[1], kw = weights.shape[2]
        let onnxWeights = permute(weights, [3, 0, 1, 2])      // [O, KH, KW, I] → [I, O, KH, KW]
        // Full output (in − 1) × stride + k, cropped to the output tensor: TFLite's padding puts the
        // odd extra at the end.
        func pads(_ input: Int, _ k: Int, _ stride: Int, _ output: Int) -> (Int, Int, Int) {
            let total = (input - 1) * stride + k - output
            if total < 0 { return (0, 0, -total) }
            return (total / 2, total - total / 2, 0)
        }
        let (top, bottom, extraH) = pads(xShape[1], kh, strideH, outShape[1])
        let (left, right, extraW) = pads(xShape[2], kw, strideW, outShape[2])
        let target = names[out]
        let wName = floatInitializer("\(target)::weight", onnxWeights.shape, onnxWeights.floats ?? [])
        var inputs = [try toNCHW(x), wName]
        if let bias { inputs.append(try value(bias)) }
        var attributes: [ONNXWriter.Attribute] = [
            .init("kernel_shape", .ints([kh, kw])), .init("strides", .ints([strideH, strideW])),
            .init("pads", .ints([top, left, bottom, right])),
        ]
        if extraH > 0 || extraW > 0 { attributes.append(.init("output_padding", .ints([extraH, extraW]))) }
        try finish(activation, out: out, nchwResult: true, "ConvTranspose", inputs, attributes)
    }

    private mutating func fullyConnected(_ op: TFLiteModel.Operator, x: Int, weights w: Int, bias: Int?, out: Int) throws {
        // FullyConnectedOptions: 0 activation, 1 weights_format, 2 keep_num_dims.
        guard try model.optionInt8(op, 1) == 0 else {
            throw ConversionError(.unsupported, "operator \(operatorIndex) (FULLY_CONNECTED) is not supported: shuffled weights")
        }
        let wShape = model.tensors[w].shape
        guard wShape.count == 2 else {
            throw ConversionError(.unsupported, "operator \(operatorIndex) (FULLY_CONNECTED) is not supported: weights of rank \(wShape.count)")
        }
        let target = names[out]
        var input = try value(x)
        if model.tensors[x].shape.count != 2 {
            input = add("Reshape", [input, int64Initializer("\(target)::flat", [-1, Int64(wShape[1])])], "\(target)::flat_x")
        }
        var inputs = [input, try value(w)]
        if let bias { inputs.append(try value(bias)) }
        let outShape = model.tensors[out].shape
        let act = try model.optionInt8(op, 0)
        if outShape.count == 2 {
            try finish(act, out: out, nchwResult: false, "Gemm", inputs, [.init("transB", .int(1))])
        } else {
            let gemm = add("Gemm", inputs, "\(target)::gemm", [.init("transB", .int(1))])
            let shape = int64Initializer("\(target)::shape", outShape.map(Int64.init))
            try finish(act, out: out, nchwResult: false, "Reshape", [gemm, shape])
        }
    }

    private mutating func pool(_ op: TFLiteModel.Operator, average: Bool, x: Int, out: Int) throws {
        // Pool2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 filter_width, 4 filter_height, 5 activation.
        let xShape = model.tensors[x].shape
        let same = try model.optionInt8(op, 0) == 0
        let sw = Int(try model.optionInt(op, 1)), sh = Int(try model.optionInt(op, 2))
        let fw = Int(try model.optionInt(op, 3)), fh = Int(try model.optionInt(op, 4))
        guard xShape.count == 4, sw > 0, sh > 0, fw > 0, fh > 0 else {
            throw ConversionError(.unsupported, "operator \(operatorIndex) (\(average ? "AVERAGE" : "MAX")_POOL_2D) is not "
                                  + "supported: needs an NHWC input, positive strides and filter size")
        }
        let (top, bottom) = same ? Self.samePadding(xShape[1], fh, sh, 1) : (0, 0)
        let (left, right) = same ? Self.samePadding(xShape[2], fw, sw, 1) : (0, 0)
        let input = try toNCHW(x)
        // TFLite's average pool divides by the number of pixels inside the image (count_include_pad 0).
        try finish(try model.optionInt8(op, 5), out: out, nchwResult: true, average ? "AveragePool" : "MaxPool", [input], [
                .init("kernel_shape", .ints([fh, fw])), .init("strides", .ints([sh, sw])),
                .init("pads", .ints([top, left, bottom, right])),
            ])
    }

    private mutating func resize(_ op: TFLiteModel.Operator, bilinear: Bool, x: Int, out: Int) throws {
        // ResizeBilinearOptions: 2 align_corners, 3 half_pixel_centers; ResizeNearestNeighborOptions: 0, 1.
        let alignCorners = try model.optionBool(op, bilinear ? 2 : 0)
        let halfPixel = try model.optionBool(op, bilinear ? 3 : 1)
        let outShape = model.tensors[out].shape
        guard outShape.count == 4, model.tensors[x].shape.count == 4 else {
            throw ConversionError(.unsupported, "operator \(operatorIndex) (RESIZE) is not supported: needs NHWC tensors")
        }
        let target = names[out]
        let sizes = int64Initializer("\(target)::sizes", [outShape[0], outShape[3], outShape[1], outShape[2]].map(Int64.init))
        var attributes: [ONNXWriter.Attribute] = [.init("mode", .string(bilinear ? "linear" : "nearest"))]
        if bilinear {
            attributes.append(.init("coordinate_transformation_mode",
                                    .string(alignCorners ? "align_corners" : halfPixel ? "half_pixel" : "asymmetric")))
        } else {
            attributes.append(.init("coordinate_transformation_mode",
                                    .string(alignCorners ? "align_corners" : halfPixel ? "tf_half_pixel_for_nn" : "asymmetric")))
            attributes.append(.init("nearest_mode", .string(alignCorners ? "round_prefer_ceil" : "floor")))
        }
        let input = try toNCHW(x)
        try finish(0, out: out, nchwResult: true, "Resize", [input, "", "", sizes], attributes)
    }

    // MARK: Constants

    /// The constant tensor `t` decoded (float16 → float32), nil when it has no data.
    private mutating func constant(_ t: Int, sparseValues: Bool = false) throws -> Constant? {
        if let c = constants[t] { return c }
        let tensor = model.tensors[t]
        guard tensor.sparsity == nil || sparseValues else {
            throw ConversionError(.unsupported, "operator \(operatorIndex) reads the sparse tensor '\(tensor.name)' "
                                  + "other than through DENSIFY")
        }
        let bytes = model.bufferBytes(tensor.buffer)
        guard !bytes.isEmpty else { return nil }
        let count = try Self.elementCount(tensor.shape, name: tensor.name)
        let size: Int
        switch tensor.type {
        case .float32, .int32: size = 4
        case .float16, .int16: size = 2
        case .int64: size = 8
        case .int8, .uint8, .bool: size = 1
        default:
            throw ConversionError(.unsupported, "constant '\(tensor.name)' is \(Self.typeName(tensor))")
        }
        let expected = tensor.sparsity == nil ? count : bytes.count / size
        guard bytes.count == expected * size, expected <= count else {
            throw ConversionError(.syntax, "constant '\(tensor.name)' holds \(bytes.count) bytes for shape \(tensor.shape)")
        }
        let base = bytes.startIndex
        func u16(_ i: Int) -> UInt16 { UInt16(bytes[base + 2 * i]) | UInt16(bytes[base + 2 * i + 1]) << 8 }
        func u32(_ i: Int) -> UInt32 {
            let o = base + 4 * i
            return UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24
        }
        var c = Constant(shape: tensor.shape)
        switch tensor.type {
        case .float32: c.floats = (0..<expected).map { Float(bitPattern: u32($0)) }
        case .float16: c.floats = (0..<expected).map { Self.halfToFloat(u16($0)) }
        case .int32: c.ints = (0..<expected).map { Int64(Int32(bitPattern: u32($0))) }
        case .int16: c.ints = (0..<expected).map { Int64(Int16(bitPattern: u16($0))) }
        case .int64: c.ints = (0..<expected).map { Int64(bitPattern: UInt64(u32(2 * $0)) | UInt64(u32(2 * $0 + 1)) << 32) }
        case .int8: c.ints = (0..<expected).map { Int64(Int8(bitPattern: bytes[base + $0])) }
        case .uint8, .bool: c.ints = (0..<expected).map { Int64(bytes[base + $0]) }
        default: break
        }
        if tensor.sparsity == nil { constants[t] = c }
        return c
    }

    /// A constant's integer values (a shape, axes, paddings).
    private mutating func intConstant(_ t: Int, op: Int, opName: String) throws -> [Int64] {
        guard let c = try constant(t), let ints = c.ints else {
            throw ConversionError(.unsupported, "operator \(op) (\(opName)) is not supported: needs a constant integer tensor '\(model.tensors[t].name)'")
        }
        return ints
    }

    /// The dense values of a sparse constant (`SparsityParameters` without block maps: TFLite's
    /// `FormatConverter`, dense and CSR dimensions in traversal order).
    private mutating func densify(_ t: Int) throws -> Constant? {
        let tensor = model.tensors[t]
        guard let sparsity = tensor.sparsity else { return try constant(t) }
        guard let values = try constant(t, sparseValues: true) else { return nil }
        let fail = ConversionError(.syntax, "sparse tensor '\(tensor.name)' has inconsistent sparsity parameters")
        guard sparsity.blockMap.isEmpty else {
            throw ConversionError(.unsupported, "sparse tensor '\(tensor.name)' uses block sparsity")
        }
        let shape = tensor.shape, rank = shape.count
        guard sparsity.dimensions.count == rank, sparsity.traversalOrder.sorted() == Array(0..<rank) else { throw fail }
        let count = try Self.elementCount(shape, name: tensor.name)
        guard count <= 1 << 24 else {
            throw ConversionError(.limitExceeded, "sparse tensor '\(tensor.name)' of shape \(shape) is too large")
        }
        var strides = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] }
        let source = values.floats.map { $0.map(Double.init) } ?? (values.ints ?? []).map(Double.init)
        var dense = [Double](repeating: 0, count: count)
        // Iterative walk: (level, position in the level, dense offset so far).
        var stack: [(Int, Int, Int)] = [(0, 0, 0)]
        while let (level, position, offset) = stack.popLast() {
            if level == rank {
                guard position < source.count, offset < count else { throw fail }
                dense[offset] = source[position]
                continue
            }
            let dim = sparsity.dimensions[level], axis = sparsity.traversalOrder[level]
            if !dim.isSparse {
                guard dim.denseSize == shape[axis] else { throw fail }
                for j in stride(from: dim.denseSize - 1, through: 0, by: -1) {
                    stack.append((level + 1, position * dim.denseSize + j, offset + j * strides[axis]))
                }
            } else {
                guard position + 1 < dim.segments.count else { throw fail }
                let start = dim.segments[position], end = dim.segments[position + 1]
                guard start >= 0, start <= end, end <= dim.indices.count else { throw fail }
                for k in stride(from: end - 1, through: start, by: -1) {
                    let i = dim.indices[k]
                    guard i >= 0, i < shape[axis] else { throw fail }
                    stack.append((level + 1, k, offset + i * strides[axis]))
                }
            }
            guard stack.count <= count + rank * 1024 else { throw fail }
        }
        if values.floats != nil { return Constant(shape: shape, floats: dense.map { Float($0) }) }
        return Constant(shape: shape, ints: dense.map { Int64($0) })
    }

    static func elementCount(_ shape: [Int], name: String) throws -> Int {
        var count = 1
        for d in shape {
            guard d >= 0 else { throw ConversionError(.syntax, "tensor '\(name)' has a negative dimension") }
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, product <= maximumElements else {
                throw ConversionError(.limitExceeded, "tensor '\(name)' of shape \(shape) is too large")
            }
            count = product
        }
        return count
    }

    static func halfToFloat(_ h: UInt16) -> Float {
        let sign: Float = h & 0x8000 != 0 ? -1 : 1
        let exponent = Int(h >> 10 & 0x1F), mantissa = Int(h & 0x3FF)
        switch exponent {
        case 0: return sign * Float(mantissa) * 0x1p-24
        case 31: return mantissa == 0 ? sign * .infinity : .nan
        default:
            return Float(bitPattern: UInt32(h & 0x8000) << 16 | UInt32(exponent - 15 + 127) << 23 | UInt32(mantissa) << 13)
        }
    }

    /// `c` with its axes permuted (`perm[i]` is the source axis of result axis i).
    private func permute(_ c: Constant, _ perm: [Int]) -> Constant {
        let shape = c.shape
        let newShape = perm.map { shape[$0] }
        var strides = [Int](repeating: 1, count: shape.count)
        for d in stride(from: shape.count - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] }
        let total = shape.reduce(1, *)
        guard let source = c.floats, source.count == total, shape.count == 4 else { return c }
        var result = [Float](repeating: 0, count: total)
        var i = 0
        let s = perm.map { strides[$0] }
        for a in 0..<newShape[0] {
            for b in 0..<newShape[1] {
                for c2 in 0..<newShape[2] {
                    let base = a * s[0] + b * s[1] + c2 * s[2]
                    for d in 0..<newShape[3] {
                        result[i] = source[base + d * s[3]]
                        i += 1
                    }
                }
            }
        }
        return Constant(shape: newShape, floats: result)
    }

    // MARK: Graph helpers

    /// The NCHW axis of NHWC axis i, and the NHWC axis of NCHW axis i.
    static let nchwAxis = [0, 2, 3, 1]
    static let nhwcAxis = [0, 3, 1, 2]

    /// An elementwise operation (ONNX broadcasting) with a fused activation, computed in NCHW
    /// when a 4-D input already is NCHW and every constant operand is a scalar or a per-channel
    /// vector ([..., C] with leading 1s), so that chains of convolutions stay NCHW.
    private mutating func elementwise(_ onnx: String, _ tensors: [Int], extra: [String] = [], out: Int,
                                      activation: Int8 = 0, attributes: [ONNXWriter.Attribute] = []) throws {
        var useNCHW = model.tensors[out].shape.count == 4 && tensors.contains { nchwOf[$0] != nil }
        if useNCHW {
            for t in tensors {
                let shape = model.tensors[t].shape
                if let c = try constant(t) {
                    if !(c.count == 1 || shape.dropLast().allSatisfy({ $0 == 1 })) { useNCHW = false }
                } else if shape.count != 4 {
                    useNCHW = false
                }
            }
        }
        var inputs: [String] = []
        for t in tensors {
            if !useNCHW {
                inputs.append(try value(t))
            } else if let c = try constant(t) {
                if let cached = nchwOf[t] {
                    inputs.append(cached)
                    continue
                }
                let name = "\(names[t])::nchw"
                let dims = c.count == 1 ? [] : [1, c.count, 1, 1]
                if let floats = c.floats {
                    graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: floats))
                } else {
                    graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, int64s: c.ints ?? []))
                }
                nchwOf[t] = name
                inputs.append(name)
            } else {
                inputs.append(try toNCHW(t))
            }
        }
        try finish(activation, out: out, nchwResult: useNCHW, onnx, inputs + extra, attributes)
    }

    /// The ONNX value of tensor `t`: produced by an earlier node, a graph input, or a constant
    /// written as an initializer on first use.
    private mutating func value(_ t: Int) throws -> String {
        if pendingNHWC.contains(t), let source = nchwOf[t] {
            pendingNHWC.remove(t)
            add("Transpose", [source], names[t], [.init("perm", .ints([0, 2, 3, 1]))])
        }
        if produced.contains(t) { return names[t] }
        if let c = try constant(t) {
            if let floats = c.floats {
                graph.initializers.append(ONNXWriter.Tensor(name: names[t], dims: c.shape, floats: floats))
            } else {
                graph.initializers.append(ONNXWriter.Tensor(name: names[t], dims: c.shape, int64s: c.ints ?? []))
            }
            produced.insert(t)
            return names[t]
        }
        throw ConversionError(.syntax, "operator \(operatorIndex) reads tensor '\(model.tensors[t].name)', which nothing computes")
    }

    /// Tensor `t` (NHWC) as NCHW, one Transpose per tensor.
    private mutating func toNCHW(_ t: Int) throws -> String {
        if let cached = nchwOf[t] { return cached }
        let name = try value(t)
        let result = add("Transpose", [name], "\(name)::nchw", [.init("perm", .ints([0, 3, 1, 2]))])
        nchwOf[t] = result
        return result
    }

    /// Runs `body` writing its result, then the fused activation, then (for NCHW results) the
    /// Transpose back to NHWC, so that the last node writes the output tensor's name.
    private mutating func finish(_ activation: Int8, out: Int, nchwResult: Bool, _ op: String, _ inputs: [String],
                                 _ attributes: [ONNXWriter.Attribute] = []) throws {
        let target = names[out]
        let needsMore = activation != 0 || nchwResult
        let first = needsMore ? "\(target)::op" : target
        add(op, inputs, first, attributes)
        var value = first
        if activation != 0 {
            let activated = nchwResult ? "\(target)::act" : target
            switch activation {
            case 1: add("Relu", [value], activated)
            case 2: add("Clip", [value, scalar(-1), scalar(1)], activated)
            case 3: add("Clip", [value, scalar(0), scalar(6)], activated)
            case 4: add("Tanh", [value], activated)
            default:
                throw ConversionError(.unsupported, "operator \(operatorIndex) has the fused activation \(activation)")
            }
            value = activated
        }
        if nchwResult {
            // The NHWC Transpose is written when a consumer needs it (`value`).
            nchwOf[out] = value
            pendingNHWC.insert(out)
        }
    }

    @discardableResult
    private mutating func add(_ op: String, _ inputs: [String], _ output: String,
                              _ attributes: [ONNXWriter.Attribute] = []) -> String {
        graph.nodes.append(ONNXWriter.Node(opType: op, name: output, inputs: inputs, outputs: [output], attributes: attributes))
        return output
    }

    private mutating func floatInitializer(_ name: String, _ dims: [Int], _ values: [Float]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: values))
        return name
    }

    private mutating func int64Initializer(_ name: String, _ values: [Int64]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [values.count], int64s: values))
        return name
    }

    /// A float scalar initializer, shared by value.
    private mutating func scalar(_ value: Float) -> String {
        if let name = scalars[value] { return name }
        let name = "::scalar\(scalars.count)"
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [], floats: [value]))
        scalars[value] = name
        return name
    }

    /// TensorFlow's SAME padding: (before, after), the odd pixel after.
    static func samePadding(_ input: Int, _ kernel: Int, _ stride: Int, _ dilation: Int) -> (Int, Int) {
        let output = (input + stride - 1) / stride
        let effective = (kernel - 1) * dilation + 1
        let total = max((output - 1) * stride + effective - input, 0)
        return (total / 2, total - total / 2)
    }
}
