import Foundation

// The N-D layers of specification 4 and later (NeuralNetwork.proto's "Following layers are available
// only after Core ML Specification version >= 4").
extension NeuralNetworkToONNX {
    /// Layer type → ONNX operator of elementwise unary layers without parameters.
    static let unaryOperators: [Int: String] = [
        665: "Ceil", 670: "Floor", 680: "Sign", 685: "Round", 710: "Sin", 715: "Cos", 720: "Tan", 730: "Asin", 735: "Acos",
        740: "Atan", 750: "Sinh", 755: "Cosh", 760: "Tanh", 770: "Asinh", 775: "Acosh", 780: "Atanh", 790: "Erf",
    ]
    /// Broadcasting binary layers → ONNX operator (mod and floorDiv are composed).
    static let binaryOperators: [Int: String] = [
        870: "Min", 875: "Max", 880: "Add", 885: "Pow", 890: "Div", 900: "Mul", 905: "Sub",
    ]
    /// Comparison layers (1 or 2 inputs; `alpha` field when one) → ONNX operator, alpha field.
    static let comparisons: [Int: (String, Int)] = [
        815: ("Equal", 1), 820: ("Equal", 1), 825: ("Less", 2), 827: ("LessOrEqual", 2), 830: ("Greater", 2),
        832: ("GreaterOrEqual", 2),
    ]
    /// The ND reduce layers → ONNX operator.
    static let reductions: [Int: String] = [
        1250: "ReduceL1", 1255: "ReduceL2", 1260: "ReduceMax", 1265: "ReduceMin", 1270: "ReduceSum", 1275: "ReduceProd",
        1280: "ReduceMean", 1285: "ReduceLogSum", 1290: "ReduceSumSquare", 1295: "ReduceLogSumExp",
    ]

    /// Every layer type `convert` handles (for `models info` and the docs' count).
    static let supportedLayerTypes: Set<Int> = Set([
        100, 120, 130, 140, 150, 160, 165, 170, 175, 180, 190, 200, 210, 211, 212, 220, 230, 231, 240, 245, 250, 260, 261,
        270, 280, 290, 300, 301, 310, 320, 330, 340, 345, 350, 400, 410, 420, 430, 600, 635, 660, 700, 795, 840, 845, 850, 855, 865, 895, 920,
        925, 930, 940, 950, 952, 960, 975, 980, 985, 995, 1000, 1015, 1020, 1025, 1040, 1045, 1065, 1070, 1080, 1085, 1090,
        1100, 1105, 1110, 1120, 1125, 1130, 1135, 1140, 1145, 1150, 1155, 1315, 1320, 1325, 1330, 1350, 1450, 1455, 1460,
        1461, 1470,
    ]).union(unaryOperators.keys).union(binaryOperators.keys).union(comparisons.keys).union(reductions.keys)

    mutating func convertND(_ layer: NeuralNetworkLayer, _ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws {
        let field = layer.typeField
        func need(_ range: ClosedRange<Int>) throws {
            guard range.contains(inputs.count) else { throw invalid("\(inputs.count) inputs (expected \(range))") }
        }
        func single(_ value: NNValue) throws {
            guard layer.outputs.count == 1 else { throw invalid("\(layer.outputs.count) outputs (expected 1)") }
            blobs[layer.outputs[0]] = value
        }
        let x = inputs.first
        if let op = Self.unaryOperators[field] {
            try need(1...1)
            _ = node1(op, [x!.name], output: out)
            return try single(NNValue(name: out, shape: x!.shape))
        }
        if let op = Self.binaryOperators[field] {
            try need(2...2)
            _ = node1(op, inputs.map(\.name), output: out)
            return try single(NNValue(name: out, shape: try broadcast(inputs[0].shape, inputs[1].shape)))
        }
        if let (op, alphaField) = Self.comparisons[field] {
            try need(1...2)
            let other = inputs.count == 2 ? inputs[1].name : scalar(try p.float(alphaField))
            var result = node1(op, [x!.name, other])
            if field == 820 { result = node1("Not", [result]) }
            _ = toFloat(result, output: out)
            return try single(NNValue(name: out, shape: inputs.count == 2 ? try broadcast(inputs[0].shape, inputs[1].shape) : x!.shape))
        }
        if let op = Self.reductions[field] {
            try need(1...1)
            return try single(try reduceND(op, p, x!, out))
        }
        switch field {
        case 635:  // rangeStatic {1 endValue, 2 startValue, 3 stepSizeValue}
            try need(0...0)
            let end = try p.float(1), start = try p.float(2), step = try p.float(3)
            guard step != 0, end.isFinite, start.isFinite, step.isFinite else { throw invalid("range \(start)..<\(end) step \(step)") }
            let span = ((end - start) / step).rounded(.up)
            guard span >= 1, span <= Float(CoreMLLimits.elements) else { throw invalid("range of \(span) values") }
            let n = Int(span)
            try ConversionBudget.chargeMadeUp(n, "layer '\(layer.name)' (rangeStatic): a constant")
            let values = (0..<n).map { start + Float($0) * step }
            graph.initializers.append(ONNXWriter.Tensor(name: out, dims: [n], floats: values))
            try single(NNValue(name: out, shape: [n], constant: n <= 4096 ? values : nil))
        case 660:  // clip {1 minVal, 2 maxVal}
            try need(1...1)
            _ = node1("Clip", [x!.name, scalar(try p.float(1)), scalar(try p.float(2))], output: out)
            try single(NNValue(name: out, shape: x!.shape))
        case 700:  // exp2
            try need(1...1)
            _ = node1("Pow", [scalar(2), x!.name], output: out)
            try single(NNValue(name: out, shape: x!.shape))
        case 795:  // gelu {1 mode: EXACT, TANH_APPROXIMATION, SIGMOID_APPROXIMATION}
            try need(1...1)
            try single(try gelu(try p.int32(1), x!, out))
        case 840, 845, 855:  // logicalOr, logicalXor, logicalAnd
            try need(2...2)
            let op = field == 840 ? "Or" : field == 845 ? "Xor" : "And"
            _ = toFloat(node1(op, [toBool(inputs[0].name), toBool(inputs[1].name)]), output: out)
            try single(NNValue(name: out, shape: try broadcast(inputs[0].shape, inputs[1].shape)))
        case 850:  // logicalNot
            try need(1...1)
            _ = toFloat(node1("Not", [toBool(x!.name)]), output: out)
            try single(NNValue(name: out, shape: x!.shape))
        case 865, 895:  // modBroadcastable (floor modulo), floorDivBroadcastable
            try need(2...2)
            let q = node1("Floor", [node1("Div", [inputs[0].name, inputs[1].name])])
            if field == 895 {
                _ = identity(q, output: out)
            } else {
                _ = node1("Sub", [inputs[0].name, node1("Mul", [q, inputs[1].name])], output: out)
            }
            try single(NNValue(name: out, shape: try broadcast(inputs[0].shape, inputs[1].shape)))
        case 920:  // tile {1 reps}
            try need(1...2)
            try single(try tile(p, inputs, out))
        case 925:  // stack {1 axis}
            try need(1...Int.max)
            let rank = x!.shape.count + 1
            let a = try normalized(Int(try p.int64(1)), rank: rank)
            guard inputs.allSatisfy({ $0.shape == x!.shape }) else { throw invalid("inputs of different shapes \(inputs.map(\.shape))") }
            var shape = x!.shape
            shape.insert(inputs.count, at: a)
            _ = node1("Concat", inputs.map { node1("Unsqueeze", [$0.name, int64s([a])]) }, output: out, [.init("axis", .int(a))])
            try single(NNValue(name: out, shape: try checked(shape)))
        case 930:  // gather {1 axis}
            try need(2...2)
            try single(try gather(Int(try p.int64(1)), inputs[0], inputs[1], out))
        case 940:  // gatherND
            try need(2...2)
            let (params, indices) = (inputs[0], inputs[1])
            guard let k = indices.shape.last, k <= params.shape.count, !indices.shape.isEmpty else {
                throw invalid("indices \(indices.shape) for data \(params.shape)")
            }
            let shape = Array(indices.shape.dropLast()) + Array(params.shape.dropFirst(k))
            _ = node1("GatherND", [params.name, toInt64(indices.name)], output: out)
            try single(NNValue(name: out, shape: shape.isEmpty ? [1] : shape))
        case 950:  // softmaxND {1 axis}
            try need(1...1)
            try single(try softmax(axis: Int(try p.int64(1)), x!, out))
        case 952:  // gatherAlongAxis {1 axis}
            try need(2...2)
            let a = try normalized(Int(try p.int64(1)), rank: x!.shape.count)
            _ = node1("GatherElements", [x!.name, toInt64(inputs[1].name)], output: out, [.init("axis", .int(a))])
            try single(NNValue(name: out, shape: inputs[1].shape))
        case 960:  // reverse {1 reverseDim}
            try need(1...1)
            let flags = try p.repeatedBool(1)
            guard flags.count == x!.shape.count else { throw invalid("reverseDim \(flags) for rank \(x!.shape.count)") }
            let axes = flags.enumerated().filter(\.element).map(\.offset)
            if axes.isEmpty {
                _ = identity(x!.name, output: out)
            } else {
                _ = node1("Slice", [x!.name, int64s(axes.map { _ in -1 }), int64s(axes.map { _ in Int(Int64.min / 2) }),
                                    int64s(axes), int64s(axes.map { _ in -1 })], output: out)
            }
            try single(NNValue(name: out, shape: x!.shape))
        case 975:  // splitND {1 axis, 2 numSplits, 3 splitSizes}
            try need(1...1)
            let a = try normalized(Int(try p.int64(1)), rank: x!.shape.count)
            var sizes = try p.repeatedCounts(3, limit: CoreMLLimits.dimension, what: "splitSizes")
            if sizes.isEmpty {
                let n = try p.count(2, limit: CoreMLLimits.dimension, what: "numSplits")
                guard n > 0, x!.shape[a] % n == 0 else { throw invalid("\(x!.shape[a]) does not split into \(n)") }
                sizes = Array(repeating: x!.shape[a] / n, count: n)
            }
            guard sizes.count == layer.outputs.count else { throw invalid("\(sizes.count) splits for \(layer.outputs.count) outputs") }
            try splitInto(x!, axis: a, sizes: sizes, layer.outputs)
        case 980:  // concatND {1 axis, 2 interleave}
            try need(1...Int.max)
            try single(try concat(axis: Int(try p.int64(1)), inputs, out, interleave: try p.bool(2)))
        case 985:  // transpose {1 axes}
            try need(1...1)
            let axes = try p.repeatedCounts(1, limit: CoreMLLimits.rank, what: "axes")
            guard axes.count == x!.shape.count, Set(axes) == Set(0..<axes.count) else {
                throw invalid("axes \(axes) for rank \(x!.shape.count)")
            }
            _ = transpose(x!.name, axes, output: out)
            try single(NNValue(name: out, shape: axes.map { x!.shape[$0] }))
        case 995:  // sliceStatic
            try need(1...1)
            try single(try sliceStatic(p, x!, out))
        case 1000:  // sliceDynamic
            try need(2...7)
            try single(try sliceDynamic(p, inputs, out))
        case 1015:  // topK {1 axis, 2 K, 3 useBottomK}
            try need(1...2)
            try topK(p, inputs, layer.outputs)
        case 1020, 1025:  // argMin, argMax {1 axis, 2 removeDim}
            try need(1...1)
            let a = try normalized(Int(try p.int64(1)), rank: x!.shape.count)
            let remove = try p.bool(2) && x!.shape.count > 1
            var shape = x!.shape
            if remove { shape.remove(at: a) } else { shape[a] = 1 }
            _ = toFloat(node1(field == 1025 ? "ArgMax" : "ArgMin", [x!.name], [.init("axis", .int(a)), .init("keepdims", .int(remove ? 0 : 1))]), output: out)
            try single(NNValue(name: out, shape: shape))
        case 1040:  // embeddingND
            try need(1...1)
            try single(try embeddingND(p, x!, out))
        case 1045:  // batchedMatmul
            try need(1...2)
            try single(try batchedMatmul(p, inputs, out))
        case 1065:  // getShape
            try need(1...1)
            let values = x!.shape.map(Float.init)
            graph.initializers.append(ONNXWriter.Tensor(name: out, dims: [values.count], floats: values))
            try single(NNValue(name: out, shape: [values.count], constant: values))
        case 1070:  // loadConstantND {1 shape, 2 data}
            try need(0...0)
            try single(try loadConstant(p, out, rank5Output: false))
        case 1080, 1085, 1090:  // fillLike, fillStatic {1 value, 2 targetShape}, fillDynamic
            let shape: [Int]
            if field == 1085 {
                try need(0...0)
                shape = try p.repeatedCounts(2, limit: CoreMLLimits.dimension, what: "targetShape")
            } else {
                try need(1...1)
                shape = field == 1080 ? x!.shape : try constantShape(x!)
            }
            let value = try p.float(1)
            let n = try elements(try checked(shape))
            try ConversionBudget.chargeMadeUp(n, "layer '\(layer.name)' (\(layer.typeName)): a \(shape) constant")
            graph.initializers.append(ONNXWriter.Tensor(name: out, dims: physical(shape), floats: Array(repeating: value, count: n)))
            try single(NNValue(name: out, shape: shape, constant: n <= 4096 ? Array(repeating: value, count: n) : nil))
        case 1100, 1105, 1110:  // broadcastToLike, broadcastToStatic {1 targetShape}, broadcastToDynamic
            let target: [Int]
            switch field {
            case 1105: try need(1...1); target = try p.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "targetShape")
            case 1100: try need(2...2); target = inputs[1].shape
            default: try need(2...2); target = try constantShape(inputs[1])
            }
            let shape = try checked(try broadcast(x!.shape, target))
            _ = node1("Expand", [x!.name, int64s(physical(shape))], output: out)
            try single(NNValue(name: out, shape: shape))
        case 1120:  // squeeze {1 axes, 2 squeezeAll}
            try need(1...1)
            try single(try squeeze(p, x!, out))
        case 1125:  // expandDims {1 axes}
            try need(1...1)
            let given = try p.repeatedInts(1, limit: CoreMLLimits.rank, what: "axes")
            let rank = x!.shape.count + given.count
            let axes = try given.map { try normalized($0, rank: rank) }.sorted()
            guard Set(axes).count == axes.count, !axes.isEmpty else { throw invalid("axes \(given)") }
            var shape = x!.shape
            for a in axes { shape.insert(1, at: a) }
            _ = reshape(x!.name, try checked(shape), output: out)
            try single(NNValue(name: out, shape: shape, constant: x!.constant))
        case 1130:  // flattenTo2D {1 axis}
            try need(1...1)
            let rank = x!.shape.count
            let axis = Int(try p.int64(1))
            let a = axis < 0 ? axis + rank : axis
            guard a >= 0, a <= rank else { throw invalid("axis \(axis) for rank \(rank)") }
            let shape = [try elements(Array(x!.shape.prefix(a))), try elements(Array(x!.shape.dropFirst(a)))]
            _ = reshape(x!.name, shape, output: out)
            try single(NNValue(name: out, shape: shape, constant: x!.constant))
        case 1135, 1140, 1145, 1150:  // reshapeLike, reshapeStatic {1 targetShape}, reshapeDynamic, rankPreservingReshape
            try single(try reshapeND(field, p, inputs, out))
        case 1155:  // constantPad {1 value, 2 padAmounts, 3 padToGivenOutputSizeMode}
            try need(1...2)
            try single(try constantPad(p, inputs, out))
        case 1315, 1320, 1325:  // matrixBandPart {1 numLower, 2 numUpper}, lowerTriangular {1 k}, upperTriangular {1 k}
            try need(1...1)
            guard x!.shape.count >= 2 else { throw invalid("input of rank \(x!.shape.count)") }
            var y = x!.name
            if field == 1320 {
                y = node1("Trilu", [y, int64Scalar(Int(try p.int64(1)))], output: out, [.init("upper", .int(0))])
            } else if field == 1325 {
                y = node1("Trilu", [y, int64Scalar(Int(try p.int64(1)))], output: out, [.init("upper", .int(1))])
            } else {
                let lower = Int(try p.int64(1)), upper = Int(try p.int64(2))
                if upper >= 0 { y = node1("Trilu", [y, int64Scalar(upper)], [.init("upper", .int(0))]) }
                if lower >= 0 { y = node1("Trilu", [y, int64Scalar(-lower)], [.init("upper", .int(1))]) }
                _ = identity(y, output: out)
            }
            try single(NNValue(name: out, shape: x!.shape))
        case 1330:  // whereBroadcastable
            try need(3...3)
            _ = node1("Where", [toBool(inputs[0].name), inputs[1].name, inputs[2].name], output: out)
            try single(NNValue(name: out, shape: try broadcast(try broadcast(inputs[0].shape, inputs[1].shape), inputs[2].shape)))
        case 1350:  // layerNormalization {1 normalizedShape, 2 eps, 3 gamma, 4 beta}
            try need(1...1)
            let normalized = try p.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "normalizedShape")
            guard !normalized.isEmpty, normalized.count <= x!.shape.count, Array(x!.shape.suffix(normalized.count)) == normalized else {
                throw invalid("normalizedShape \(normalized) for input \(x!.shape)")
            }
            let n = try elements(normalized)
            let gamma = constant(try weights(p, 3, count: n, what: "gamma"), dims: normalized, hint: "gamma")
            let beta = constant(try weights(p, 4, count: n, what: "beta"), dims: normalized, hint: "beta")
            _ = node1("LayerNormalization", [x!.name, gamma, beta], output: out,
                      [.init("axis", .int(-normalized.count)), .init("epsilon", .float(try p.float(2)))])
            try single(NNValue(name: out, shape: x!.shape))
        case 1450:  // oneHot {1 oneHotVectorSize, 2 axis, 3 onValue, 4 offValue}
            try need(1...2)
            try single(try oneHot(p, inputs, out))
        case 1455:  // cumSum {1 axis, 2 excludeFinalSum, 3 reverse}
            try need(1...1)
            let a = try normalized(Int(try p.int64(1)), rank: x!.shape.count)
            _ = node1("CumSum", [x!.name, int64Scalar(a)], output: out,
                      [.init("exclusive", .int(try p.bool(2) ? 1 : 0)), .init("reverse", .int(try p.bool(3) ? 1 : 0))])
            try single(NNValue(name: out, shape: x!.shape))
        case 1460:  // clampedReLU {1 alpha, 2 beta}: min(beta, x ≥ 0 ? x : alpha x)
            try need(1...1)
            let leaky = node1("LeakyRelu", [x!.name], [.init("alpha", .float(try p.float(1)))])
            _ = node1("Min", [leaky, scalar(try p.float(2))], output: out)
            try single(NNValue(name: out, shape: x!.shape))
        case 1461:  // argSort {1 axis, 2 descending}
            try need(1...1)
            let a = try normalized(Int(try p.int64(1)), rank: x!.shape.count)
            let outs = node("TopK", [x!.name, int64s([x!.shape[a]])], count: 2,
                            [.init("axis", .int(a)), .init("largest", .int(try p.bool(2) ? 1 : 0)), .init("sorted", .int(1))])
            _ = toFloat(outs[1], output: out)
            try single(NNValue(name: out, shape: x!.shape))
        case 1470:  // sliceBySize {2 size, 3 axis}; the second input is the start
            try need(2...2)
            let a = try normalized(Int(try p.int64(3)), rank: x!.shape.count)
            let size = try p.count(2, limit: CoreMLLimits.dimension, what: "size")
            guard size > 0, size <= x!.shape[a] else { throw invalid("size \(size) of \(x!.shape[a])") }
            let begin = node1("Reshape", [toInt64(inputs[1].name), int64s([1])])
            let end = node1("Add", [begin, int64s([size])])
            _ = node1("Slice", [x!.name, begin, end, int64s([try physicalAxis(a, of: x!.shape)])], output: out)
            var shape = x!.shape
            shape[a] = size
            try single(NNValue(name: out, shape: shape))
        default:
            let random: Set<Int> = [1170, 1175, 1180, 1190, 1195, 1200, 1210, 1215, 1220, 1230]
            if random.contains(field) { throw unsupported("random layers give other numbers than Core ML's generator") }
            throw unsupported()
        }
    }

    // MARK: Helpers of the N-D layers

    /// The values of a blob used as a shape (a constant computed at conversion time).
    func constantShape(_ v: NNValue) throws -> [Int] {
        guard let values = v.constant else { throw unsupported("a shape computed at run time (only constant shapes are converted)") }
        return try values.map { f in
            guard f >= 0, f <= Float(CoreMLLimits.dimension), f == f.rounded() else { throw invalid("shape value \(f)") }
            return Int(f)
        }
    }

    mutating func reduceND(_ op: String, _ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        let keep = try p.bool(2)
        let axes = try p.bool(3) ? Array(0..<rank) : Set(try p.repeatedInts(1, limit: CoreMLLimits.rank, what: "axes").map { try normalized($0, rank: rank) }).sorted()
        guard !axes.isEmpty else { throw invalid("no axes to reduce") }
        var shape: [Int] = []
        for (i, d) in x.shape.enumerated() {
            if axes.contains(i) { if keep { shape.append(1) } } else { shape.append(d) }
        }
        let attributes: [ONNXWriter.Attribute] = [.init("keepdims", .int(keep ? 1 : 0))]
        let result: String
        let target = shape.isEmpty ? fresh("\(layerName)_scalar") : out
        if op == "ReduceSum" {
            result = node1(op, [x.name, int64s(axes)], output: target, attributes)
        } else {
            result = node1(op, [x.name], output: target, attributes + [.init("axes", .ints(axes))])
        }
        if shape.isEmpty {
            // Core ML keeps a rank-1 [1] when every axis is reduced away.
            _ = reshape(result, [1], output: out)
            shape = [1]
        }
        return NNValue(name: out, shape: shape)
    }

    mutating func gelu(_ mode: Int32, _ x: NNValue, _ out: String) throws -> NNValue {
        let v = x.name
        switch mode {
        case 0:
            let erf = node1("Erf", [node1("Mul", [v, scalar(Float(1 / 2.0.squareRoot()))])])
            _ = node1("Mul", [node1("Mul", [v, scalar(0.5)]), node1("Add", [erf, scalar(1)])], output: out)
        case 1:
            let cube = node1("Mul", [node1("Mul", [v, v]), v])
            let inner = node1("Mul", [node1("Add", [v, node1("Mul", [cube, scalar(0.044715)])]), scalar(Float((2 / Double.pi).squareRoot()))])
            _ = node1("Mul", [node1("Mul", [v, scalar(0.5)]), node1("Add", [node1("Tanh", [inner]), scalar(1)])], output: out)
        case 2:
            _ = node1("Mul", [v, node1("Sigmoid", [node1("Mul", [v, scalar(1.702)])])], output: out)
        default: throw invalid("GELU mode \(mode)")
        }
        return NNValue(name: out, shape: x.shape)
    }

    mutating func tile(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        var reps = inputs.count == 2 ? try constantShape(inputs[1]) : try p.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "reps")
        guard !reps.isEmpty, reps.count <= x.shape.count, reps.allSatisfy({ $0 > 0 }) else { throw invalid("reps \(reps) for rank \(x.shape.count)") }
        reps = Array(repeating: 1, count: x.shape.count - reps.count) + reps
        let shape = try checked(zip(x.shape, reps).map { $0 * $1 })
        _ = node1("Tile", [x.name, int64s(reps)], output: out)
        return NNValue(name: out, shape: shape)
    }

    mutating func gather(_ axis: Int, _ data: NNValue, _ indices: NNValue, _ out: String) throws -> NNValue {
        let a = try normalized(axis, rank: data.shape.count)
        var shape = Array(data.shape.prefix(a)) + indices.shape + Array(data.shape.dropFirst(a + 1))
        _ = node1("Gather", [data.name, toInt64(indices.name)], output: out, [.init("axis", .int(a))])
        if shape.isEmpty { shape = [1] }
        return NNValue(name: out, shape: try checked(shape))
    }

    /// Start, end and step of one axis of a numpy slice with masks (Core ML's sliceStatic/sliceDynamic).
    func sliceBounds(size n: Int, begin: Int, end: Int, stride: Int, beginMask: Bool, endMask: Bool) throws -> (Int, Int, Int) {
        guard stride != 0 else { throw invalid("stride 0") }
        var b = begin, e = end
        if stride > 0 {
            if beginMask { b = 0 } else { if b < 0 { b += n }; b = min(max(b, 0), n) }
            if endMask { e = n } else { if e < 0 { e += n }; e = min(max(e, 0), n) }
            return (b, e, e > b ? (e - b - 1) / stride + 1 : 0)
        }
        if beginMask { b = n - 1 } else { if b < 0 { b += n }; b = min(max(b, -1), n - 1) }
        if endMask { e = -1 } else { if e < 0 { e += n }; e = min(max(e, -1), n - 1) }
        return (b, e, b > e ? (b - e - 1) / -stride + 1 : 0)
    }

    /// `SliceStaticLayerParams`: 1 beginIds, 2 beginMasks, 3 endIds, 4 endMasks, 5 strides, 6 squeezeMasks.
    mutating func sliceStatic(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        let limit = Int(Int32.max)
        var strides = try p.repeatedInts(5, limit: limit, what: "strides")
        var beginMasks = try p.repeatedBool(2), endMasks = try p.repeatedBool(4), squeeze = try p.repeatedBool(6)
        if strides.isEmpty { strides = Array(repeating: 1, count: rank) }
        if beginMasks.isEmpty { beginMasks = Array(repeating: false, count: rank) }
        if endMasks.isEmpty { endMasks = Array(repeating: false, count: rank) }
        if squeeze.isEmpty { squeeze = Array(repeating: false, count: rank) }
        return try sliceStaticValues(x, begin: try p.repeatedInts(1, limit: limit, what: "beginIds"),
                                     end: try p.repeatedInts(3, limit: limit, what: "endIds"), strides: strides,
                                     beginMasks: beginMasks, endMasks: endMasks, squeeze: squeeze, out)
    }

    /// `SliceDynamicLayerParams` (2 beginMasks, 3 endIds, 4 endMasks, 5 strides, 6 squeezeMasks); inputs
    /// data, beginIds, then optionally endIds, strides, beginMasks, endMasks, squeezeMasks. Converted when the
    /// parameters are known at conversion time (constants): the output shape of a run-time slice is not.
    mutating func sliceDynamic(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        let rank = x.shape.count
        func ints(_ v: NNValue) throws -> [Int] {
            guard let c = v.constant else { throw unsupported("a run-time slice parameter other than begin/end") }
            return c.map { Int($0) }
        }
        var strides = inputs.count > 3 ? try ints(inputs[3]) : try p.repeatedInts(5, limit: Int(Int32.max), what: "strides")
        var beginMasks = inputs.count > 4 ? try ints(inputs[4]).map { $0 != 0 } : try p.repeatedBool(2)
        var endMasks = inputs.count > 5 ? try ints(inputs[5]).map { $0 != 0 } : try p.repeatedBool(4)
        var squeeze = inputs.count > 6 ? try ints(inputs[6]).map { $0 != 0 } : try p.repeatedBool(6)
        if strides.isEmpty { strides = Array(repeating: 1, count: rank) }
        if beginMasks.isEmpty { beginMasks = Array(repeating: false, count: rank) }
        if endMasks.isEmpty { endMasks = Array(repeating: false, count: rank) }
        if squeeze.isEmpty { squeeze = Array(repeating: false, count: rank) }
        let endStatic = inputs.count > 2 ? nil : try p.repeatedInts(3, limit: Int(Int32.max), what: "endIds")
        // Everything constant: a static slice.
        if let begin = inputs[1].constant, inputs.count <= 2 || inputs[2].constant != nil {
            let end = inputs.count > 2 ? inputs[2].constant!.map { Int($0) } : endStatic ?? []
            return try sliceStaticValues(x, begin: begin.map { Int($0) }, end: end, strides: strides, beginMasks: beginMasks,
                                         endMasks: endMasks, squeeze: squeeze, out)
        }
        guard !squeeze.contains(true), strides.count == rank, beginMasks.count == rank, endMasks.count == rank else {
            throw unsupported("a run-time slice with squeezed axes")
        }
        throw unsupported("a slice whose begin is computed at run time (output size unknown at conversion)")
    }

    mutating func sliceStaticValues(_ x: NNValue, begin: [Int], end: [Int], strides: [Int], beginMasks: [Bool], endMasks: [Bool],
                                    squeeze: [Bool], _ out: String) throws -> NNValue {
        let rank = x.shape.count
        guard [begin.count, end.count, strides.count, beginMasks.count, endMasks.count, squeeze.count].allSatisfy({ $0 == rank }) else {
            throw invalid("slice parameters of lengths \([begin.count, end.count, strides.count]) for rank \(rank)")
        }
        var starts: [Int] = [], ends: [Int] = [], steps: [Int] = [], axes: [Int] = [], shape: [Int] = []
        var squeezed = false
        for a in 0..<rank {
            let n = x.shape[a]
            if squeeze[a] {
                var b = begin[a]
                if b < 0 { b += n }
                guard b >= 0, b < n else { throw invalid("index \(begin[a]) of \(n)") }
                starts.append(b); ends.append(b + 1); steps.append(1); axes.append(a)
                squeezed = true
                continue
            }
            let (b, e, length) = try sliceBounds(size: n, begin: begin[a], end: end[a], stride: strides[a],
                                                 beginMask: beginMasks[a], endMask: endMasks[a])
            guard length > 0 else { throw invalid("an empty slice of axis \(a)") }
            shape.append(length)
            starts.append(b); ends.append(e < 0 ? Int(Int64.min / 2) : e); steps.append(strides[a]); axes.append(a)
        }
        let y = node1("Slice", [x.name, int64s(starts), int64s(ends), int64s(axes), int64s(steps)], output: squeezed ? nil : out)
        if squeezed {
            if shape.isEmpty { shape = [1] }
            _ = reshape(y, shape, output: out)
        }
        return NNValue(name: out, shape: try checked(shape))
    }

    /// `TopKLayerParams`: 1 axis, 2 K (or the second input), 3 useBottomK; outputs values and indices.
    mutating func topK(_ p: ProtoMessage, _ inputs: [NNValue], _ outputs: [String]) throws {
        let x = inputs[0]
        let a = try normalized(Int(try p.int64(1)), rank: x.shape.count)
        let k = inputs.count == 2 ? try constantShape(inputs[1]).first ?? 0 : try p.count(2, limit: CoreMLLimits.dimension, what: "K")
        guard k > 0, k <= x.shape[a] else { throw invalid("K \(k) for \(x.shape[a]) values") }
        guard (1...2).contains(outputs.count) else { throw invalid("\(outputs.count) outputs") }
        let names = outputs.map { outputName($0) }
        let raw = node("TopK", [x.name, int64s([k])], count: 2,
                       [.init("axis", .int(a)), .init("largest", .int(try p.bool(3) ? 0 : 1)), .init("sorted", .int(1))])
        var shape = x.shape
        shape[a] = k
        _ = identity(raw[0], output: names[0])
        blobs[outputs[0]] = NNValue(name: names[0], shape: shape)
        if outputs.count == 2 {
            _ = toFloat(raw[1], output: names[1])
            blobs[outputs[1]] = NNValue(name: names[1], shape: shape)
        }
    }

    /// `EmbeddingNDLayerParams`: 1 vocabSize, 2 embeddingSize, 3 hasBias, 20 weights [E, V], 21 bias;
    /// input `[..., 1]` of indices, output `[..., E]`.
    mutating func embeddingND(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let d = CoreMLLimits.dimension
        let vocab = try p.count(1, limit: d, what: "vocabSize"), size = try p.count(2, limit: d, what: "embeddingSize")
        guard vocab > 0, size > 0, x.shape.count >= 1, x.shape.last == 1 else { throw invalid("input \(x.shape), vocab \(vocab), size \(size)") }
        let w = try weights(p, 20, count: try elements([size, vocab]), what: "weights", channels: .init(channels: size, inner: vocab))
        var table = [Float](repeating: 0, count: w.count)
        for o in 0..<size { for i in 0..<vocab { table[i * size + o] = w[o * vocab + i] } }
        let tName = constant(table, dims: [vocab, size], hint: "table")
        let lead = Array(x.shape.dropLast())
        let indices = toInt64(reshape(x.name, lead.isEmpty ? [1] : lead))
        var y = node1("Gather", [tName, indices], [.init("axis", .int(0))])
        if try p.bool(3) { y = node1("Add", [y, constant(try weights(p, 21, count: size, what: "bias"), dims: [size], hint: "B")]) }
        let shape = (lead.isEmpty ? [1] : lead) + [size]
        _ = identity(y, output: out)
        return NNValue(name: out, shape: shape)
    }

    /// `BatchedMatMulLayerParams`: 1 transposeA, 2 transposeB, 5 weightMatrixFirstDimension X1,
    /// 6 weightMatrixSecondDimension X2, 7 hasBias, 8 weights (X1 × X2 stored column-major), 9 bias, 10 int8DynamicQuantize.
    mutating func batchedMatmul(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        var a = inputs[0]
        if inputs.count == 1 {
            let d = CoreMLLimits.dimension
            let x1 = try p.count(5, limit: d, what: "weightMatrixFirstDimension"), x2 = try p.count(6, limit: d, what: "weightMatrixSecondDimension")
            guard x1 > 0, x2 > 0, a.shape.last == x1 else { throw invalid("input \(a.shape) for a \(x1) × \(x2) weight matrix") }
            // Stored column-major [X1, X2] = row-major [X2, X1]; per-channel scales run along X2.
            let stored = try weights(p, 8, count: try elements([x1, x2]), what: "weights", channels: .init(channels: x2, inner: x1))
            var matrix = [Float](repeating: 0, count: stored.count)
            for j in 0..<x2 { for i in 0..<x1 { matrix[i * x2 + j] = stored[j * x1 + i] } }
            var y = node1("MatMul", [a.name, constant(matrix, dims: [x1, x2], hint: "W")])
            if try p.bool(7) { y = node1("Add", [y, constant(try weights(p, 9, count: x2, what: "bias"), dims: [x2], hint: "B")]) }
            _ = identity(y, output: out)
            return NNValue(name: out, shape: Array(a.shape.dropLast()) + [x2])
        }
        var b = inputs[1]
        if a.shape.count == 1 { a = NNValue(name: reshape(a.name, [1] + a.shape), shape: [1] + a.shape) }
        if b.shape.count == 1 { b = NNValue(name: reshape(b.name, b.shape + [1]), shape: b.shape + [1]) }
        func swapLast(_ v: NNValue) -> NNValue {
            let r = v.shape.count
            var perm = Array(0..<r)
            perm.swapAt(r - 1, r - 2)
            return NNValue(name: transpose(v.name, perm), shape: perm.map { v.shape[$0] })
        }
        if try p.bool(1) { a = swapLast(a) }
        if try p.bool(2) { b = swapLast(b) }
        guard a.shape.last == b.shape[b.shape.count - 2] else { throw invalid("matrices \(a.shape) × \(b.shape)") }
        let batch = try broadcast(Array(a.shape.dropLast(2)), Array(b.shape.dropLast(2)))
        _ = node1("MatMul", [a.name, b.name], output: out)
        return NNValue(name: out, shape: try checked(batch + [a.shape[a.shape.count - 2], b.shape[b.shape.count - 1]]))
    }

    /// `SqueezeLayerParams`: 1 axes, 2 squeezeAll; a rank-1 input stays rank 1.
    mutating func squeeze(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        var axes: [Int]
        if try p.bool(2) {
            axes = x.shape.enumerated().filter { $0.element == 1 }.map(\.offset)
        } else {
            axes = Set(try p.repeatedInts(1, limit: CoreMLLimits.rank, what: "axes").map { try normalized($0, rank: rank) }).sorted()
            guard axes.allSatisfy({ x.shape[$0] == 1 }) else { throw invalid("squeezing axes \(axes) of \(x.shape)") }
        }
        var shape = x.shape.enumerated().filter { !axes.contains($0.offset) }.map(\.element)
        if shape.isEmpty { shape = [1] }
        _ = reshape(x.name, shape, output: out)
        return NNValue(name: out, shape: shape, constant: x.constant)
    }

    /// `reshapeLike` (the second input's shape), `reshapeStatic` (1 targetShape), `reshapeDynamic` (the second
    /// input's values), `rankPreservingReshape` (1 targetShape: 0 keeps a dimension, −1 is inferred).
    mutating func reshapeND(_ field: Int, _ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        var target: [Int]
        switch field {
        case 1135:
            guard inputs.count == 2 else { throw invalid("\(inputs.count) inputs (expected 2)") }
            target = inputs[1].shape
        case 1145:
            guard inputs.count == 2 else { throw invalid("\(inputs.count) inputs (expected 2)") }
            target = try constantShape(inputs[1])
        default:
            guard inputs.count == 1 else { throw invalid("\(inputs.count) inputs (expected 1)") }
            target = try p.repeatedInts(1, limit: CoreMLLimits.dimension, what: "targetShape")
            if field == 1150 {
                guard target.count == x.shape.count else { throw invalid("targetShape \(target) for rank \(x.shape.count)") }
                for i in target.indices where target[i] == 0 { target[i] = x.shape[i] }
            }
        }
        let total = try elements(x.shape)
        if let unknown = target.firstIndex(of: -1) {
            let known = try elements(target.enumerated().filter { $0.offset != unknown }.map { max($0.element, 0) })
            guard known > 0, total % known == 0 else { throw invalid("cannot infer -1 in \(target) for \(x.shape)") }
            target[unknown] = total / known
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0 }), try elements(target) == total else {
            throw invalid("cannot reshape \(x.shape) to \(target)")
        }
        _ = reshape(x.name, physical(target), output: out)
        return NNValue(name: out, shape: try checked(target), constant: x.constant)
    }

    /// `ConstantPaddingLayerParams`: 1 value, 2 padAmounts (before, after per axis), 3 padToGivenOutputSizeMode.
    mutating func constantPad(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        let rank = x.shape.count
        var amounts = inputs.count == 2 ? try constantShape(inputs[1]) : try p.repeatedCounts(2, limit: CoreMLLimits.dimension, what: "padAmounts")
        guard amounts.count == 2 * rank else { throw invalid("\(amounts.count) pad amounts for rank \(rank)") }
        if try p.bool(3) {
            for i in 0..<rank {
                let target = max(amounts[2 * i], amounts[2 * i + 1])
                let extra = max(0, target - x.shape[i])
                if amounts[2 * i] > 0 { amounts[2 * i] = extra; amounts[2 * i + 1] = 0 } else { amounts[2 * i + 1] = extra }
            }
        }
        let shape = try checked((0..<rank).map { x.shape[$0] + amounts[2 * $0] + amounts[2 * $0 + 1] })
        let pads = (0..<rank).map { amounts[2 * $0] } + (0..<rank).map { amounts[2 * $0 + 1] }
        _ = node1("Pad", [x.name, int64s(pads), scalar(try p.float(1))], output: out, [.init("mode", .string("constant"))])
        return NNValue(name: out, shape: shape)
    }

    /// `OneHotLayerParams`: 1 oneHotVectorSize (or the second input's shape... value), 2 axis, 3 onValue, 4 offValue.
    /// Negative indices give all `offValue` (ONNX would wrap them).
    mutating func oneHot(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        let depth = inputs.count == 2 ? try constantShape(inputs[1]).first ?? 0 : try p.count(1, limit: CoreMLLimits.dimension, what: "oneHotVectorSize")
        guard depth > 0 else { throw invalid("one-hot size \(depth)") }
        let rank = x.shape.count + 1
        let a = try normalized(Int(try p.int64(2)), rank: rank)
        let indices = toInt64(x.name)
        let negative = node1("Less", [indices, int64Scalar(0)])
        let safe = node1("Where", [negative, int64Scalar(depth), indices])
        let values = constant([try p.float(4), try p.float(3)], dims: [2], hint: "onoff")
        _ = node1("OneHot", [safe, int64Scalar(depth), values], output: out, [.init("axis", .int(a))])
        var shape = x.shape
        shape.insert(depth, at: a)
        return NNValue(name: out, shape: try checked(shape))
    }
}
