/// The operation dispatch, and the elementwise operations and activations
/// (semantics from coremltools' op definitions, coremltools/converters/mil/mil/ops/defs/iOS15–iOS18).
extension MILLowering {
    static let unaryOperations: [String: String] = [
        "abs": "Abs", "acos": "Acos", "asin": "Asin", "atan": "Atan", "atanh": "Atanh", "ceil": "Ceil", "cos": "Cos",
        "cosh": "Cosh", "erf": "Erf", "exp": "Exp", "floor": "Floor", "round": "Round", "sign": "Sign", "sin": "Sin",
        "sinh": "Sinh", "sqrt": "Sqrt", "tan": "Tan", "tanh": "Tanh", "logical_not": "Not", "relu": "Relu",
        "sigmoid": "Sigmoid", "softplus": "Softplus", "softsign": "Softsign",
    ]

    static let binaryOperations: [String: String] = [
        "add": "Add", "sub": "Sub", "mul": "Mul", "real_div": "Div", "pow": "Pow", "maximum": "Max", "minimum": "Min",
        "equal": "Equal", "less": "Less", "less_equal": "LessOrEqual", "greater": "Greater",
        "greater_equal": "GreaterOrEqual", "logical_and": "And", "logical_or": "Or", "logical_xor": "Xor",
    ]

    static let otherOperations: Set<String> = [
        "const", "identity", "cast", "not_equal", "floor_div", "mod", "inverse", "log", "rsqrt", "exp2", "square",
        "clip", "threshold", "relu6", "leaky_relu", "prelu", "sigmoid_hard", "silu", "gelu", "elu", "scaled_tanh",
        "clamped_relu", "thresholded_relu", "linear_activation", "softplus_parametric", "softmax", "select",
        "classify",
        "constexpr_affine_dequantize", "constexpr_cast", "constexpr_lut_to_dense", "constexpr_sparse_to_dense",
        "constexpr_blockwise_shift_scale", "constexpr_sparse_blockwise_shift_scale", "constexpr_lut_to_sparse",
        "dequantize", "quantize",
        "conv", "conv_transpose", "linear", "matmul", "einsum", "scaled_dot_product_attention", "avg_pool", "max_pool",
        "l2_pool", "batch_norm",
        "instance_norm", "layer_norm", "l2_norm", "local_response_norm",
        "reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_l1_norm", "reduce_l2_norm",
        "reduce_log_sum", "reduce_log_sum_exp", "reduce_sum_square", "reduce_argmax", "reduce_argmin", "topk",
        "argsort", "cumsum",
        "reshape", "transpose", "squeeze", "expand_dims", "flatten2d", "concat", "split", "stack", "tile", "pad",
        "slice_by_index", "slice_by_size", "gather", "gather_along_axis", "gather_nd", "shape", "fill", "fill_like",
        "range_1d", "space_to_depth", "depth_to_space", "pixel_shuffle", "pixel_unshuffle", "reverse", "one_hot",
        "non_zero", "band_part", "scatter_along_axis", "scatter_nd",
        "upsample_nearest_neighbor", "upsample_bilinear", "resize_bilinear", "resize_nearest_neighbor", "resize",
        "crop_resize", "crop",
    ]

    static var supportedOperations: Set<String> {
        Set(unaryOperations.keys).union(binaryOperations.keys).union(otherOperations)
    }

    mutating func lowerOperation(_ op: MILOperation) throws {
        if let onnx = Self.unaryOperations[op.type] {
            try emitOutput(op, onnx, [input(op, "x")])
            return
        }
        if let onnx = Self.binaryOperations[op.type] {
            try binary(op, onnx)
            return
        }
        switch op.type {
        case "const":
            guard let out = op.outputs.first,
                let value = op.attributes["val"]
                    ?? op.inputs["val"].flatMap({
                        if case .value(let v)? = $0.first { return v }
                        return nil
                    })
            else { throw invalid("a const without a value") }
            values[out.name] = try lowered(value, fallbackType: out.type, milName: out.name)
        case let type where type.hasPrefix("constexpr_"):
            let results = try decompress(op)
            guard results.count == op.outputs.count else {
                throw invalid("has \(op.outputs.count) outputs; \(results.count) are defined")
            }
            for (out, result) in zip(op.outputs, results) {
                var c = result
                c.milName = out.name
                values[out.name] = .constant(c)
            }
        case "identity": try alias(op, 0, required(op, "x"))
        case "cast": try cast(op)
        case "not_equal":
            let t = try binaryOperands(op)
            let eq = node("Equal", [t.0, t.1], base: op.outputs.first?.name ?? "eq")
            try emitOutput(op, "Not", [eq])
        case "floor_div": try floorDiv(op)
        case "mod": try mod(op)
        case "inverse":
            let x = try withEpsilon(op, default: 1e-4)
            try emitOutput(op, "Reciprocal", [x])
        case "log":
            let x = try withEpsilon(op, default: .leastNonzeroMagnitude)  // numpy float32(1e-45)
            try emitOutput(op, "Log", [x])
        case "rsqrt":
            let x = try withEpsilon(op, default: 1e-12)
            let root = node("Sqrt", [x], base: op.outputs.first?.name ?? "sqrt")
            try emitOutput(op, "Reciprocal", [root])
        case "exp2": try emitOutput(op, "Pow", [scalar(2), input(op, "x", as: .float)])
        case "square":
            let x = try input(op, "x")
            try emitOutput(op, "Mul", [x, x])
        case "clip": try clip(op, low: try float(op, "alpha"), high: try float(op, "beta"))
        case "relu6": try clip(op, low: 0, high: 6)
        case "threshold": try emitOutput(op, "Max", [input(op, "x"), scalar(try float(op, "alpha"))])
        case "leaky_relu":
            try emitOutput(
                op, "LeakyRelu", [input(op, "x")], [.init("alpha", .float(try float(op, "alpha", default: 0.01)))])
        case "elu":
            try emitOutput(op, "Elu", [input(op, "x")], [.init("alpha", .float(try float(op, "alpha", default: 1)))])
        case "sigmoid_hard":
            try emitOutput(
                op, "HardSigmoid", [input(op, "x")],
                [
                    .init("alpha", .float(try float(op, "alpha", default: 0.2))),
                    .init("beta", .float(try float(op, "beta", default: 0.5))),
                ])
        case "prelu": try prelu(op)
        case "silu":
            let x = try input(op, "x")
            let s = node("Sigmoid", [x], base: op.outputs.first?.name ?? "sigmoid")
            try emitOutput(op, "Mul", [x, s])
        case "gelu": try gelu(op)
        case "scaled_tanh":
            let scaled = node("Mul", [try input(op, "x"), scalar(try float(op, "beta"))])
            let t = node("Tanh", [scaled])
            try emitOutput(op, "Mul", [t, scalar(try float(op, "alpha"))])
        case "clamped_relu":
            let leaky = node("LeakyRelu", [try input(op, "x")], [.init("alpha", .float(try float(op, "alpha")))])
            try emitOutput(op, "Min", [leaky, scalar(try float(op, "beta"))])
        case "thresholded_relu":
            let x = try input(op, "x")
            let below = node("Less", [x, scalar(try float(op, "alpha"))])
            try emitOutput(op, "Where", [below, scalar(0), x])
        case "linear_activation":
            let scaled = node("Mul", [try input(op, "x"), scalar(try float(op, "alpha"))])
            try emitOutput(op, "Add", [scaled, scalar(try float(op, "beta"))])
        case "softplus_parametric": try softplusParametric(op)
        case "softmax":
            let x = try required(op, "x")
            let r = try rank(x)
            try emitOutput(
                op, "Softmax", [tensor(x)], [.init("axis", .int(try axis(try int(op, "axis", default: -1), rank: r)))])
        case "select":
            let cond = try input(op, "cond", as: .bool)
            let a = try required(op, "a")
            let b = try required(op, "b")
            let type = runtimeType(a, b)
            try emitOutput(op, "Where", [cond, tensor(a, as: type), tensor(b, as: type)])
        case "classify": try classify(op)
        case "dequantize", "quantize": try quantization(op)
        case "conv": try conv(op)
        case "conv_transpose": try convTranspose(op)
        case "linear": try linear(op)
        case "matmul": try matmul(op)
        case "einsum": try einsum(op)
        case "scaled_dot_product_attention": try scaledDotProductAttention(op)
        case "avg_pool", "max_pool", "l2_pool": try pool(op)
        case "batch_norm": try batchNorm(op)
        case "instance_norm": try instanceNorm(op)
        case "layer_norm": try layerNorm(op)
        case "l2_norm": try l2Norm(op)
        case "local_response_norm": try localResponseNorm(op)
        case let t where t.hasPrefix("reduce_"): try reduce(op)
        case "topk": try topk(op)
        case "argsort": try argsort(op)
        case "cumsum": try cumsum(op)
        case "upsample_nearest_neighbor", "upsample_bilinear", "resize_bilinear", "resize_nearest_neighbor", "resize":
            try resize(op)
        case "crop_resize": try cropResize(op)
        case "crop": try crop(op)
        default:
            if Self.otherOperations.contains(op.type) {
                try lowerShapeOperation(op)
            } else {
                throw unsupported()
            }
        }
    }

    // MARK: Elementwise

    /// The ONNX type two operands share: a runtime operand's, else the first constant's.
    func runtimeType(_ a: MILLowered, _ b: MILLowered) -> ONNXWriter.DataType? {
        if case .tensor(let t) = a { return t.onnxType }
        if case .tensor(let t) = b { return t.onnxType }
        if let d = info(a).dataType { return Self.onnxType(d) }
        return nil
    }

    mutating func binaryOperands(_ op: MILOperation) throws -> (String, String) {
        let x = try required(op, "x")
        let y = try required(op, "y")
        let type = runtimeType(x, y)
        return (try tensor(x, as: type), try tensor(y, as: type))
    }

    mutating func binary(_ op: MILOperation, _ onnx: String) throws {
        let (x, y) = try binaryOperands(op)
        try emitOutput(op, onnx, [x, y])
    }

    mutating func isFloat(_ op: MILOperation, _ key: String) throws -> Bool {
        (info(try required(op, key)).dataType ?? .fp32).isFloat
    }

    mutating func floorDiv(_ op: MILOperation) throws {
        let (x, y) = try binaryOperands(op)
        if try isFloat(op, "x") {
            let q = node("Div", [x, y])
            try emitOutput(op, "Floor", [q])
        } else {
            // Integer division rounded toward −∞ (ONNX's Div truncates): via float32, exact below 2^24.
            let xf = node("Cast", [x], [.init("to", .int(1))])
            let yf = node("Cast", [y], [.init("to", .int(1))])
            let q = node("Floor", [node("Div", [xf, yf])])
            try emitOutput(op, "Cast", [q], [.init("to", .int(Int(ONNXWriter.DataType.int64.rawValue)))])
        }
    }

    /// Python's `%`: the result has the divisor's sign.
    mutating func mod(_ op: MILOperation) throws {
        let (x, y) = try binaryOperands(op)
        if try isFloat(op, "x") {
            let q = node("Floor", [node("Div", [x, y])])
            try emitOutput(op, "Sub", [x, node("Mul", [q, y])])
        } else {
            try emitOutput(op, "Mod", [x, y], [.init("fmod", .int(0))])
        }
    }

    /// `x + epsilon` (epsilon defaulting to `default` rounded to x's type), or x when epsilon is 0.
    mutating func withEpsilon(_ op: MILOperation, default value: Float) throws -> String {
        let x = try required(op, "x")
        let fp16 = info(x).dataType == .fp16
        let epsilon = try float(op, "epsilon", default: fp16 ? Half.round(value) : value)
        let name = try tensor(x)
        return epsilon == 0 ? name : node("Add", [name, scalar(epsilon)])
    }

    mutating func clip(_ op: MILOperation, low: Float, high: Float) throws {
        let x = try required(op, "x")
        if info(x).dataType?.isFloat == false {
            let lo = int64Constant([try integer(low)], dims: [])
            let hi = int64Constant([try integer(high)], dims: [])
            try emitOutput(op, "Clip", [tensor(x), lo, hi])
        } else {
            try emitOutput(op, "Clip", [tensor(x), scalar(low), scalar(high)])
        }
    }

    mutating func cast(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let name = try string(op, "dtype")
        guard let target = MILDataType(textName: name) else { throw unsupported("cast to '\(name)'") }
        let source = info(x).dataType ?? .fp32
        if case .constant(var c) = x {
            guard c.dataType != .string, target != .string else { throw unsupported("cast of strings") }
            // Cast of a constant: converted here (integers truncate toward zero, as numpy's astype).
            c.data =
                target.isFloat
                ? c.data.converted(to: target)
                : target == .bool ? .bools(c.data.floats.map { $0 != 0 }) : .ints(c.data.ints)
            c.dataType = target
            c.milName = op.outputs.first?.name
            try alias(op, 0, .constant(c))
            return
        }
        if Self.onnxType(source) == Self.onnxType(target) {
            guard case .tensor(var t) = x else { throw unsupported("cast of a non-tensor") }
            t.dataType = target
            try alias(op, 0, .tensor(t))
            return
        }
        try emitOutput(
            op, "Cast", [tensor(x)], [.init("to", .int(Int(Self.onnxType(target).rawValue)))], dataType: target)
    }

    // MARK: Activations

    /// A per-channel constant ([C]) shaped to broadcast over axis 1 of a tensor of `rank`.
    mutating func channelConstant(_ op: MILOperation, _ key: String, rank: Int) throws -> String {
        guard let c = try constant(op, key) else { throw invalid("the required input '\(key)' is missing") }
        let dims = c.count == 1 ? [] : [c.count] + [Int](repeating: 1, count: max(rank - 2, 0))
        return floatConstant(c.data.floats, dims: dims)
    }

    mutating func prelu(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let slope = try channelConstant(op, "alpha", rank: try rank(x))
        try emitOutput(op, "PRelu", [tensor(x), slope])
    }

    mutating func softplusParametric(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let alpha = try channelConstant(op, "alpha", rank: r)
        let beta = try channelConstant(op, "beta", rank: r)
        let soft = node("Softplus", [node("Mul", [try tensor(x), beta])])
        try emitOutput(op, "Mul", [soft, alpha])
    }

    /// GELU in the three forms MIL defines; the exact form is written as ONNX Runtime's Gelu fusion
    /// pattern (x · 0.5 · (1 + erf(x / √2))).
    mutating func gelu(_ op: MILOperation) throws {
        let x = try input(op, "x")
        switch try string(op, "mode", default: "EXACT") {
        case "EXACT":
            let erf = node("Erf", [node("Div", [x, scalar(Float(2).squareRoot())])])
            let onePlus = node("Add", [erf, scalar(1)])
            try emitOutput(op, "Mul", [node("Mul", [x, onePlus]), scalar(0.5)])
        case "TANH_APPROXIMATION":
            let cube = node("Mul", [node("Mul", [x, x]), x])
            let inner = node("Add", [x, node("Mul", [cube, scalar(0.044715)])])
            let t = node("Tanh", [node("Mul", [inner, scalar(Float((2 / Double.pi).squareRoot()))])])
            let onePlus = node("Add", [t, scalar(1)])
            try emitOutput(op, "Mul", [node("Mul", [x, onePlus]), scalar(0.5)])
        case "SIGMOID_APPROXIMATION":
            let s = node("Sigmoid", [node("Mul", [x, scalar(1.702)])])
            try emitOutput(op, "Mul", [x, s])
        case let mode:
            throw unsupported("gelu mode '\(mode)'")
        }
    }

    // MARK: Classifier

    /// `classify`: the label output becomes the int64 index of the largest probability (last axis),
    /// the dictionary output the probability tensor itself.
    mutating func classify(_ op: MILOperation) throws {
        guard op.outputs.count == 2 else { throw invalid("classify has \(op.outputs.count) outputs") }
        let p = try required(op, "probabilities")
        let r = try rank(p)
        let index = outputName(op, 0)
        emit("ArgMax", [try tensor(p)], [index], [.init("axis", .int(max(r - 1, 0))), .init("keepdims", .int(0))])
        let labelShape = info(p).shape.map { Array($0.dropLast()) }
        values[op.outputs[0].name] = .tensor(MILRuntime(name: index, dataType: .int64, shape: labelShape))
        guard case .tensor(var t) = p else { throw unsupported("classify of constant probabilities") }
        t.dataType = .fp32
        values[op.outputs[1].name] = .tensor(t)
    }

    // MARK: iOS 17 activation quantization

    /// `quantize` / `dequantize` (iOS 17): QuantizeLinear / DequantizeLinear with the scale and zero
    /// point as float32 / (u)int8 initializers.
    mutating func quantization(_ op: MILOperation) throws {
        let x = try required(op, "input")
        guard let scale = try constant(op, "scale") else { throw invalid("the required input 'scale' is missing") }
        let zero = try constant(op, "zero_point")
        let axis = try constant(op, "axis").flatMap { $0.data.ints.first }.map { Int($0) }
        var attributes: [ONNXWriter.Attribute] = []
        if scale.count > 1 {
            attributes.append(.init("axis", .int(axis ?? 0)))
        }
        let scaleName = floatConstant(
            scale.data.converted(to: scale.dataType).floats, dims: scale.count > 1 ? [scale.count] : [])
        if op.type == "quantize" {
            let dtype = try string(op, "output_dtype")
            let out: ONNXWriter.DataType = dtype == "uint8" ? .uint8 : .int8
            let zp = try initializer(
                MILConstant(
                    dataType: out == .uint8 ? .uint8 : .int8, shape: zero.map { $0.count > 1 ? [$0.count] : [] } ?? [],
                    data: zero?.data ?? .ints([0])), as: out)
            try emitOutput(
                op, "QuantizeLinear", [tensor(x, as: .float), scaleName, zp], attributes,
                dataType: out == .uint8 ? .uint8 : .int8)
        } else {
            let inType = Self.onnxType(info(x).dataType ?? .int8)
            var inputs = [try tensor(x), scaleName]
            if let zero {
                inputs.append(
                    try initializer(
                        MILConstant(
                            dataType: zero.dataType, shape: zero.count > 1 ? [zero.count] : [], data: zero.data),
                        as: inType))
            }
            try emitOutput(op, "DequantizeLinear", inputs, attributes, dataType: .fp32)
        }
    }
}
