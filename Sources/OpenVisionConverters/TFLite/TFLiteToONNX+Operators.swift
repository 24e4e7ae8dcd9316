import Foundation

/// TFLite operators to ONNX nodes: the dispatch over the supported builtin and custom operators and the
/// operators that take several ONNX nodes (convolutions, fully connected, pooling, resizing).
extension TFLiteToONNX {
    /// One operator being converted: the operator, its index and name, its first output and that output's ONNX name.
    struct OperatorContext {
        let op: TFLiteModel.Operator
        let index: Int
        let opName: String
        let out: Int
        let target: String

        /// Input `k`'s tensor index; `syntax` when the operator lacks it.
        func input(_ k: Int) throws -> Int {
            guard k < op.inputs.count, op.inputs[k] >= 0 else {
                throw ConversionError(.syntax, "operator \(index) (\(opName)) lacks input \(k)")
            }
            return op.inputs[k]
        }

        /// Input `k`'s tensor index, nil when the operator leaves it out.
        func optionalInput(_ k: Int) -> Int? {
            k < op.inputs.count && op.inputs[k] >= 0 ? op.inputs[k] : nil
        }

        /// The `unsupported` error naming the operator, with `detail`.
        func unsupported(_ detail: String = "") -> ConversionError {
            ConversionError(
                .unsupported, "operator \(index) (\(opName)) is not supported\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }

    mutating func convert(_ op: TFLiteModel.Operator, index: Int) throws {
        let code = model.operatorCodes[op.opcodeIndex]
        let opName = code.name
        guard !op.outputs.isEmpty else {
            throw ConversionError(.syntax, "operator \(index) (\(opName)) has no outputs")
        }
        let context = OperatorContext(
            op: op, index: index, opName: opName, out: op.outputs[0], target: names[op.outputs[0]])
        let out = context.out
        let target = context.target
        func input(_ k: Int) throws -> Int { try context.input(k) }
        func optionalInput(_ k: Int) -> Int? { context.optionalInput(k) }
        func unsupported(_ detail: String = "") -> ConversionError { context.unsupported(detail) }

        if code.builtin == TFLiteBuiltin.custom {
            switch code.custom ?? "" {
            case "Convolution2DTransposeBias":
                // MediaPipe's transpose_conv_bias.cc: inputs (input, weights [O, KH, KW, I], bias [O]);
                // custom options: TfLiteTransposeConvParams {padding, stride_width, stride_height} as int32.
                let params = model.customInt32s(op)
                guard params.count >= 3 else { throw unsupported("options of \(params.count * 4) bytes") }
                try transposeConvolution(
                    op, x: try input(0), weights: try input(1), bias: optionalInput(2),
                    strideW: Int(params[1]), strideH: Int(params[2]), activation: 0, out: out)
            default:
                throw unsupported()
            }
            produced.formUnion(op.outputs)
            return
        }

        switch opName {
        case "ADD", "SUB", "MUL", "DIV":
            let onnx =
                switch opName {
                case "ADD": "Add"
                case "SUB": "Sub"
                case "MUL": "Mul"
                default: "Div"
                }
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
            try transposeConvolution(
                op, x: try input(2), weights: try input(1), bias: optionalInput(3),
                strideW: Int(try model.optionInt(op, 1)), strideH: Int(try model.optionInt(op, 2)),
                activation: try model.optionInt8(op, 3), out: out)
        case "FULLY_CONNECTED":
            try fullyConnected(op, x: try input(0), weights: try input(1), bias: optionalInput(2), out: out)
        case "AVERAGE_POOL_2D", "MAX_POOL_2D":
            try pool(op, average: opName == "AVERAGE_POOL_2D", x: try input(0), out: out)
        case "MEAN": try mean(context)
        case "CONCATENATION": try concatenation(context)
        case "RESHAPE", "SQUEEZE", "EXPAND_DIMS":
            let shape = model.tensors[out].shape
            let s = int64Initializer("\(target)::shape", shape.map(Int64.init))
            add("Reshape", [try value(try input(0)), s], target)
        case "TRANSPOSE":
            let perm = try intConstant(try input(1), op: index, opName: opName).map(Int.init)
            add("Transpose", [try value(try input(0))], target, [.init("perm", .ints(perm))])
        case "PAD", "PADV2", "MIRROR_PAD": try pad(context)
        case "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR":
            try resize(op, bilinear: opName == "RESIZE_BILINEAR", x: try input(0), out: out)
        case "DEPTH_TO_SPACE", "SPACE_TO_DEPTH": try depthToSpace(context)
        case "LOGISTIC": try elementwise("Sigmoid", [try input(0)], out: out)
        case "TANH": try elementwise("Tanh", [try input(0)], out: out)
        case "RELU": try elementwise("Relu", [try input(0)], out: out)
        case "RELU6": try elementwise("Clip", [try input(0)], extra: [scalar(0), scalar(6)], out: out)
        case "RELU_N1_TO_1": try elementwise("Clip", [try input(0)], extra: [scalar(-1), scalar(1)], out: out)
        case "LEAKY_RELU":
            try elementwise(
                "LeakyRelu", [try input(0)], out: out,
                attributes: [.init("alpha", .float(try model.optionFloat(op, 0)))])
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
            try dequantize(context)
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

    /// MEAN: ReduceMean over constant axes; a spatial mean of an NCHW value stays NCHW.
    mutating func mean(_ o: OperatorContext) throws {
        let x = try o.input(0)
        let rank = model.tensors[x].shape.count
        let axes = try intConstant(try o.input(1), op: o.index, opName: o.opName).map {
            Int($0 < 0 ? $0 + Int64(rank) : $0)
        }
        guard axes.allSatisfy({ $0 >= 0 && $0 < rank }) else {
            throw o.unsupported("axes \(axes) of a rank-\(rank) tensor")
        }
        let keep = try model.optionBool(o.op, 0)
        if rank == 4, Set(axes) == [1, 2], nchwOf[x] != nil {
            // Spatial mean of an NCHW value: [N, C, 1, 1] kept, else [N, C] as in NHWC.
            let input = try toNCHW(x)
            try finish(
                0, out: o.out, nchwResult: keep, "ReduceMean", [input],
                [.init("axes", .ints([2, 3])), .init("keepdims", .int(keep ? 1 : 0))])
        } else {
            add(
                "ReduceMean", [try value(x)], o.target,
                [.init("axes", .ints(axes)), .init("keepdims", .int(keep ? 1 : 0))])
        }
    }

    /// CONCATENATION along its axis, in NCHW when every input is, with its fused activation.
    mutating func concatenation(_ o: OperatorContext) throws {
        let rank = model.tensors[o.out].shape.count
        var axis = Int(try model.optionInt(o.op, 0))
        if axis < 0 { axis += rank }
        guard axis >= 0, axis < max(rank, 1) else { throw o.unsupported("axis \(axis)") }
        let sources = o.op.inputs.filter { $0 >= 0 }
        let act = try model.optionInt8(o.op, 1)
        if rank == 4, sources.allSatisfy({ nchwOf[$0] != nil }) {
            let inputs = try sources.map { try toNCHW($0) }
            try finish(act, out: o.out, nchwResult: true, "Concat", inputs, [.init("axis", .int(Self.nchwAxis[axis]))])
        } else {
            let inputs = try sources.map { try value($0) }
            try finish(act, out: o.out, nchwResult: false, "Concat", inputs, [.init("axis", .int(axis))])
        }
    }

    /// PAD, PADV2 (constant value) and MIRROR_PAD (reflect); zero channels appended to a 4-D value as a 1 × 1 convolution.
    mutating func pad(_ o: OperatorContext) throws {
        let x = try o.input(0)
        let rank = model.tensors[x].shape.count
        let pads = try intConstant(try o.input(1), op: o.index, opName: o.opName)
        guard pads.count == 2 * rank else { throw o.unsupported("paddings of \(pads.count) values for rank \(rank)") }
        var padValue: Float = 0
        if o.opName == "PADV2", let c = o.optionalInput(2) {
            guard let v = try constant(c)?.floats?.first else { throw o.unsupported("a non-constant pad value") }
            padValue = v
        }
        // Zero channels appended to a 4-D value (the residual blocks of BlazeFace and the palm detector): a
        // 1 × 1 convolution with identity weights gives the same values and keeps ONNX Runtime's blocked (NCHWc)
        // layout through the Add that follows, where a Pad needs reorders out of and back into it.
        if o.opName != "MIRROR_PAD", rank == 4, padValue == 0, pads[7] > 0, pads[0..<7].allSatisfy({ $0 == 0 }),
            case let cin = model.tensors[x].shape[3], cin > 0
        {
            let cout = cin + Int(pads[7])
            var identity = [Float](repeating: 0, count: cout * cin)
            for c in 0..<cin { identity[c * cin + c] = 1 }
            let w = floatInitializer("\(o.target)::identity", [cout, cin, 1, 1], identity)
            try finish(
                0, out: o.out, nchwResult: true, "Conv", [try toNCHW(x), w], [.init("kernel_shape", .ints([1, 1]))])
            return
        }
        // Padding an NCHW value stays NCHW (ONNX dimension i is NHWC dimension nhwcAxis[i]).
        let inNCHW = rank == 4 && nchwOf[x] != nil
        let order = inNCHW ? Self.nhwcAxis : Array(0..<rank)
        let onnxPads = order.map { pads[2 * $0] } + order.map { pads[2 * $0 + 1] }
        let p = int64Initializer("\(o.target)::pads", onnxPads)
        var inputs = [inNCHW ? try toNCHW(x) : try value(x), p]
        var attributes: [ONNXWriter.Attribute] = []
        if o.opName == "PADV2", o.optionalInput(2) != nil { inputs.append(scalar(padValue)) }
        if o.opName == "MIRROR_PAD" {
            guard try model.optionInt8(o.op, 0) == 0 else { throw o.unsupported("SYMMETRIC mode") }
            attributes.append(.init("mode", .string("reflect")))
        }
        try finish(0, out: o.out, nchwResult: inNCHW, "Pad", inputs, attributes)
    }

    /// DEPTH_TO_SPACE (DCR order, as TFLite) and SPACE_TO_DEPTH, in NCHW.
    mutating func depthToSpace(_ o: OperatorContext) throws {
        let block = Int(try model.optionInt(o.op, 0))
        guard block > 0 else { throw o.unsupported("block size \(block)") }
        let x = try toNCHW(try o.input(0))
        var attributes: [ONNXWriter.Attribute] = [.init("blocksize", .int(block))]
        if o.opName == "DEPTH_TO_SPACE" { attributes.append(.init("mode", .string("DCR"))) }
        try finish(
            0, out: o.out, nchwResult: true, o.opName == "DEPTH_TO_SPACE" ? "DepthToSpace" : "SpaceToDepth", [x],
            attributes)
    }

    /// DEQUANTIZE of a constant tensor (per-tensor scale and zero point): the float constant, no node.
    mutating func dequantize(_ o: OperatorContext) throws {
        let x = try o.input(0)
        guard let c = try constants[x] ?? constant(x) else {
            throw o.unsupported("only constant tensors are dequantized")
        }
        let tensor = model.tensors[x]
        guard try Self.elementCount(model.tensors[o.out].shape, name: model.tensors[o.out].name) == c.count else {
            throw ConversionError(
                .syntax,
                "operator \(o.index) (DEQUANTIZE) changes the shape \(c.shape) to \(model.tensors[o.out].shape)")
        }
        if let floats = c.floats {
            constants[o.out] = Constant(shape: model.tensors[o.out].shape, floats: floats)
        } else if let ints = c.ints {
            guard tensor.scale.count == 1 else { throw o.unsupported("per-channel quantization") }
            let scale = tensor.scale[0]
            let zero = Float(tensor.zeroPoint.first ?? 0)
            constants[o.out] = Constant(
                shape: model.tensors[o.out].shape, floats: ints.map { scale * (Float($0) - zero) })
        }
    }

    /// Conv / depthwise conv: weights [O, KH, KW, I] (depthwise [1, KH, KW, C × M]) → ONNX [O, I/group, KH, KW].
    mutating func convolution(_ op: TFLiteModel.Operator, depthwise: Bool, out: Int) throws {
        let index = operatorIndex
        let opName = depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D"
        guard op.inputs.count >= 2, op.inputs[0] >= 0, op.inputs[1] >= 0 else {
            throw ConversionError(.syntax, "operator \(index) (\(opName)) lacks inputs")
        }
        let x = op.inputs[0]
        let w = op.inputs[1]
        let bias = op.inputs.count > 2 && op.inputs[2] >= 0 ? op.inputs[2] : nil
        let xShape = model.tensors[x].shape
        guard xShape.count == 4, let weights = try constant(w), weights.shape.count == 4, let floats = weights.floats
        else {
            throw ConversionError(
                .unsupported,
                "operator \(index) (\(opName)) is not supported: needs an NHWC input and constant 4-D weights")
        }
        // Conv2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 activation, 4 dilation_w, 5 dilation_h.
        // DepthwiseConv2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 depth_multiplier, 4 activation, 5/6 dilation.
        let same = try model.optionInt8(op, 0) == 0
        let strideW = Int(try model.optionInt(op, 1))
        let strideH = Int(try model.optionInt(op, 2))
        let act = try model.optionInt8(op, depthwise ? 4 : 3)
        let dilationW = Int(try model.optionInt(op, depthwise ? 5 : 4, default: 1))
        let dilationH = Int(try model.optionInt(op, depthwise ? 6 : 5, default: 1))
        let kh = weights.shape[1]
        let kw = weights.shape[2]
        guard strideW > 0, strideH > 0, dilationW > 0, dilationH > 0, kh > 0, kw > 0 else {
            throw ConversionError(.invalidValue, "operator \(index) (\(opName)) has a zero stride, dilation or kernel")
        }
        let onnxWeights: Constant
        let group: Int
        if depthwise {
            onnxWeights = permute(weights, [3, 0, 1, 2])  // [1, KH, KW, C×M] → [C×M, 1, KH, KW]
            group = xShape[3]
        } else {
            onnxWeights = permute(weights, [0, 3, 1, 2])  // [O, KH, KW, I] → [O, I, KH, KW]
            group = max(1, xShape[3] / max(weights.shape[3], 1))
        }
        let (top, bottom) = same ? Self.samePadding(xShape[1], kh, strideH, dilationH) : (0, 0)
        let (left, right) = same ? Self.samePadding(xShape[2], kw, strideW, dilationW) : (0, 0)
        let target = names[out]
        let wName = floatInitializer("\(target)::weight", onnxWeights.shape, onnxWeights.floats ?? floats)
        var inputs = [try toNCHW(x), wName]
        if let bias { inputs.append(try value(bias)) }
        try finish(
            act, out: out, nchwResult: true, "Conv", inputs,
            [
                .init("kernel_shape", .ints([kh, kw])), .init("strides", .ints([strideH, strideW])),
                .init("dilations", .ints([dilationH, dilationW])), .init("pads", .ints([top, left, bottom, right])),
                .init("group", .int(group)),
            ])
    }

    /// Transposed convolution with weights [O, KH, KW, I] and the output size of the output tensor.
    mutating func transposeConvolution(
        _ op: TFLiteModel.Operator, x: Int, weights w: Int, bias: Int?,
        strideW: Int, strideH: Int, activation: Int8, out: Int
    ) throws {
        let index = operatorIndex
        let opName = model.operatorCodes[op.opcodeIndex].name
        let xShape = model.tensors[x].shape
        let outShape = model.tensors[out].shape
        guard xShape.count == 4, outShape.count == 4, let weights = try constant(w), weights.shape.count == 4,
            weights.floats != nil, strideW > 0, strideH > 0
        else {
            throw ConversionError(
                .unsupported,
                "operator \(index) (\(opName)) is not supported: needs NHWC tensors, "
                    + "constant 4-D weights and positive strides")
        }
        let kh = weights.shape[1]
        let kw = weights.shape[2]
        let onnxWeights = permute(weights, [3, 0, 1, 2])  // [O, KH, KW, I] → [I, O, KH, KW]
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

    mutating func fullyConnected(_ op: TFLiteModel.Operator, x: Int, weights w: Int, bias: Int?, out: Int) throws {
        // FullyConnectedOptions: 0 activation, 1 weights_format, 2 keep_num_dims.
        guard try model.optionInt8(op, 1) == 0 else {
            throw ConversionError(
                .unsupported, "operator \(operatorIndex) (FULLY_CONNECTED) is not supported: shuffled weights")
        }
        let wShape = model.tensors[w].shape
        guard wShape.count == 2 else {
            throw ConversionError(
                .unsupported,
                "operator \(operatorIndex) (FULLY_CONNECTED) is not supported: weights of rank \(wShape.count)")
        }
        let target = names[out]
        var input = try value(x)
        if model.tensors[x].shape.count != 2 {
            input = add(
                "Reshape", [input, int64Initializer("\(target)::flat", [-1, Int64(wShape[1])])], "\(target)::flat_x")
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

    mutating func pool(_ op: TFLiteModel.Operator, average: Bool, x: Int, out: Int) throws {
        // Pool2DOptions: 0 padding, 1 stride_w, 2 stride_h, 3 filter_width, 4 filter_height, 5 activation.
        let xShape = model.tensors[x].shape
        let same = try model.optionInt8(op, 0) == 0
        let sw = Int(try model.optionInt(op, 1))
        let sh = Int(try model.optionInt(op, 2))
        let fw = Int(try model.optionInt(op, 3))
        let fh = Int(try model.optionInt(op, 4))
        guard xShape.count == 4, sw > 0, sh > 0, fw > 0, fh > 0 else {
            throw ConversionError(
                .unsupported,
                "operator \(operatorIndex) (\(average ? "AVERAGE" : "MAX")_POOL_2D) is not "
                    + "supported: needs an NHWC input, positive strides and filter size")
        }
        let (top, bottom) = same ? Self.samePadding(xShape[1], fh, sh, 1) : (0, 0)
        let (left, right) = same ? Self.samePadding(xShape[2], fw, sw, 1) : (0, 0)
        let input = try toNCHW(x)
        // TFLite's average pool divides by the number of pixels inside the image (count_include_pad 0).
        try finish(
            try model.optionInt8(op, 5), out: out, nchwResult: true, average ? "AveragePool" : "MaxPool", [input],
            [
                .init("kernel_shape", .ints([fh, fw])), .init("strides", .ints([sh, sw])),
                .init("pads", .ints([top, left, bottom, right])),
            ])
    }

    mutating func resize(_ op: TFLiteModel.Operator, bilinear: Bool, x: Int, out: Int) throws {
        // ResizeBilinearOptions: 2 align_corners, 3 half_pixel_centers; ResizeNearestNeighborOptions: 0, 1.
        let alignCorners = try model.optionBool(op, bilinear ? 2 : 0)
        let halfPixel = try model.optionBool(op, bilinear ? 3 : 1)
        let outShape = model.tensors[out].shape
        guard outShape.count == 4, model.tensors[x].shape.count == 4 else {
            throw ConversionError(
                .unsupported, "operator \(operatorIndex) (RESIZE) is not supported: needs NHWC tensors")
        }
        let target = names[out]
        let sizes = int64Initializer(
            "\(target)::sizes", [outShape[0], outShape[3], outShape[1], outShape[2]].map(Int64.init))
        var attributes: [ONNXWriter.Attribute] = [.init("mode", .string(bilinear ? "linear" : "nearest"))]
        if bilinear {
            attributes.append(
                .init(
                    "coordinate_transformation_mode",
                    .string(alignCorners ? "align_corners" : halfPixel ? "half_pixel" : "asymmetric")))
        } else {
            attributes.append(
                .init(
                    "coordinate_transformation_mode",
                    .string(alignCorners ? "align_corners" : halfPixel ? "tf_half_pixel_for_nn" : "asymmetric")))
            attributes.append(.init("nearest_mode", .string(alignCorners ? "round_prefer_ceil" : "floor")))
        }
        let input = try toNCHW(x)
        try finish(0, out: out, nchwResult: true, "Resize", [input, "", "", sizes], attributes)
    }
}
