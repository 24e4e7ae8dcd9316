import Foundation

/// One N-D layer being converted: its parameters, inputs and the ONNX name of its (first) output.
struct NDCall {
    let layer: NeuralNetworkLayer
    let p: ProtoMessage
    let inputs: [NNValue]
    let out: String
}

// The N-D layers of specification 4 and later (`NDLayer`), by kind: element-wise, logical, constants, shapes and
// copies, normalisations (here); indexing, slicing, sorting, reductions and matrices (NeuralNetworkToONNX+NDIndexing).
extension NeuralNetworkToONNX {
    /// Element-wise unary layers without parameters → ONNX operator.
    static let unaryOperators: [NDLayer: String] = [
        .ceil: "Ceil", .floor: "Floor", .sign: "Sign", .round: "Round", .sin: "Sin", .cos: "Cos", .tan: "Tan",
        .asin: "Asin", .acos: "Acos", .atan: "Atan", .sinh: "Sinh", .cosh: "Cosh", .tanh: "Tanh", .asinh: "Asinh",
        .acosh: "Acosh", .atanh: "Atanh", .erf: "Erf",
    ]
    /// Broadcasting binary layers → ONNX operator (mod and floorDiv are composed).
    static let binaryOperators: [NDLayer: String] = [
        .minBroadcastable: "Min", .maxBroadcastable: "Max", .addBroadcastable: "Add", .powBroadcastable: "Pow",
        .divideBroadcastable: "Div", .multiplyBroadcastable: "Mul", .subtractBroadcastable: "Sub",
    ]
    /// Comparison layers (one or two inputs; with one, the `alpha` field) → ONNX operator, alpha field.
    static let comparisons: [NDLayer: (op: String, alpha: Int)] = [
        .equal: ("Equal", NDField.Equality.alpha), .notEqual: ("Equal", NDField.Equality.alpha),
        .lessThan: ("Less", NDField.Ordering.alpha), .lessEqual: ("LessOrEqual", NDField.Ordering.alpha),
        .greaterThan: ("Greater", NDField.Ordering.alpha), .greaterEqual: ("GreaterOrEqual", NDField.Ordering.alpha),
    ]
    /// The N-D reductions → ONNX operator.
    static let reductions: [NDLayer: String] = [
        .reduceL1: "ReduceL1", .reduceL2: "ReduceL2", .reduceMax: "ReduceMax", .reduceMin: "ReduceMin",
        .reduceSum: "ReduceSum", .reduceProd: "ReduceProd", .reduceMean: "ReduceMean", .reduceLogSum: "ReduceLogSum",
        .reduceSumSquare: "ReduceSumSquare", .reduceLogSumExp: "ReduceLogSumExp",
    ]

    /// Every layer type `convert` handles (for `models info` and the docs' count): the rank-5 layers and every N-D
    /// layer.
    static let supportedLayerTypes: Set<Int> = Set([
        100, 120, 130, 140, 150, 160, 165, 170, 175, 180, 190, 200, 210, 211, 212, 220, 230, 231, 240, 245, 250, 260,
        261, 270, 280, 290, 300, 301, 310, 320, 330, 340, 345, 350, 400, 410, 420, 430, 500, 600,
    ]).union(NDLayer.allCases.map(\.rawValue))

    mutating func convertND(_ layer: NeuralNetworkLayer, _ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws {
        guard let type = NDLayer(rawValue: layer.typeField) else {
            if NDLayer.random.contains(layer.typeField) {
                throw unsupported("random layers give other numbers than Core ML's generator")
            }
            throw unsupported()
        }
        let call = NDCall(layer: layer, p: p, inputs: inputs, out: out)
        switch type {
        case .splitND: return try splitND(call)
        case .topK: return try topK(call)
        default: break
        }
        let value = try ndValue(type, call)
        guard layer.outputs.count == 1 else { throw invalid("\(layer.outputs.count) outputs (expected 1)") }
        blobs[layer.outputs[0]] = value
    }

    /// The one output of an N-D layer, by kind.
    private mutating func ndValue(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        if let op = Self.unaryOperators[type] {
            let x = try only(c)
            _ = node1(op, [x.name], output: c.out)
            return NNValue(name: c.out, shape: x.shape)
        }
        if let op = Self.binaryOperators[type] {
            let (a, b) = try pair(c)
            _ = node1(op, [a.name, b.name], output: c.out)
            return NNValue(name: c.out, shape: try broadcast(a.shape, b.shape))
        }
        if let comparison = Self.comparisons[type] { return try compare(type, comparison, c) }
        if let op = Self.reductions[type] { return try reduceND(op, c.p, try only(c), c.out) }
        switch type {
        case .clip, .exp2, .gelu, .clampedReLU, .modBroadcastable, .floorDivBroadcastable, .whereBroadcastable:
            return try arithmeticND(type, c)
        case .logicalOr, .logicalXor, .logicalAnd, .logicalNot:
            return try logicalND(type, c)
        case .rangeStatic, .getShape, .loadConstantND, .fillLike, .fillStatic, .fillDynamic:
            return try constantND(type, c)
        case .tile, .stack, .concatND, .transpose, .reverse, .broadcastToLike, .broadcastToStatic, .broadcastToDynamic,
            .squeeze, .expandDims, .flattenTo2D, .reshapeLike, .reshapeStatic, .reshapeDynamic, .rankPreservingReshape,
            .constantPad:
            return try shapeND(type, c)
        case .gather, .gatherND, .gatherAlongAxis, .sliceStatic, .sliceDynamic, .sliceBySize, .argMin, .argMax,
            .argSort, .oneHot, .cumSum, .matrixBandPart, .lowerTriangular, .upperTriangular:
            return try indexingND(type, c)
        case .softmaxND, .layerNormalization, .embeddingND, .batchedMatmul:
            return try networkND(type, c)
        default:
            throw unsupported()
        }
    }

    // MARK: Inputs

    /// Throws unless the layer has `range` inputs.
    func need(_ c: NDCall, _ range: ClosedRange<Int>) throws {
        guard range.contains(c.inputs.count) else { throw invalid("\(c.inputs.count) inputs (expected \(range))") }
    }

    /// The first input, of a layer taking `range` (at least one) inputs.
    func first(_ c: NDCall, _ range: ClosedRange<Int>) throws -> NNValue {
        try need(c, range)
        guard let x = c.inputs.first else { throw invalid("no input") }
        return x
    }

    /// The input of a layer taking exactly one.
    func only(_ c: NDCall) throws -> NNValue { try first(c, 1...1) }

    /// The inputs of a layer taking exactly two.
    func pair(_ c: NDCall) throws -> (NNValue, NNValue) {
        try need(c, 2...2)
        return (c.inputs[0], c.inputs[1])
    }

    // MARK: Element-wise

    private mutating func compare(_ type: NDLayer, _ comparison: (op: String, alpha: Int), _ c: NDCall) throws
        -> NNValue
    {
        let x = try first(c, 1...2)
        let other = c.inputs.count == 2 ? c.inputs[1].name : scalar(try c.p.float(comparison.alpha))
        var result = node1(comparison.op, [x.name, other])
        if type == .notEqual { result = node1("Not", [result]) }
        _ = toFloat(result, output: c.out)
        return NNValue(name: c.out, shape: c.inputs.count == 2 ? try broadcast(x.shape, c.inputs[1].shape) : x.shape)
    }

    private mutating func arithmeticND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let p = c.p
        switch type {
        case .clip:
            let x = try only(c)
            _ = node1(
                "Clip", [x.name, scalar(try p.float(NDField.Clip.minVal)), scalar(try p.float(NDField.Clip.maxVal))],
                output: c.out)
            return NNValue(name: c.out, shape: x.shape)
        case .exp2:
            let x = try only(c)
            _ = node1("Pow", [scalar(2), x.name], output: c.out)
            return NNValue(name: c.out, shape: x.shape)
        case .gelu:
            return try gelu(try p.int32(NDField.Gelu.mode), try only(c), c.out)
        case .clampedReLU:
            // min(beta, x ≥ 0 ? x : alpha x)
            let x = try only(c)
            let leaky = node1("LeakyRelu", [x.name], [.init("alpha", .float(try p.float(NDField.ClampedReLU.alpha)))])
            _ = node1("Min", [leaky, scalar(try p.float(NDField.ClampedReLU.beta))], output: c.out)
            return NNValue(name: c.out, shape: x.shape)
        case .modBroadcastable, .floorDivBroadcastable:
            // Floor modulo and floor division.
            let (a, b) = try pair(c)
            let q = node1("Floor", [node1("Div", [a.name, b.name])])
            if type == .floorDivBroadcastable {
                _ = identity(q, output: c.out)
            } else {
                _ = node1("Sub", [a.name, node1("Mul", [q, b.name])], output: c.out)
            }
            return NNValue(name: c.out, shape: try broadcast(a.shape, b.shape))
        default:  // .whereBroadcastable
            try need(c, 3...3)
            let (condition, a, b) = (c.inputs[0], c.inputs[1], c.inputs[2])
            _ = node1("Where", [toBool(condition.name), a.name, b.name], output: c.out)
            return NNValue(name: c.out, shape: try broadcast(try broadcast(condition.shape, a.shape), b.shape))
        }
    }

    private mutating func logicalND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        if type == .logicalNot {
            let x = try only(c)
            _ = toFloat(node1("Not", [toBool(x.name)]), output: c.out)
            return NNValue(name: c.out, shape: x.shape)
        }
        let (a, b) = try pair(c)
        let op = type == .logicalOr ? "Or" : type == .logicalXor ? "Xor" : "And"
        _ = toFloat(node1(op, [toBool(a.name), toBool(b.name)]), output: c.out)
        return NNValue(name: c.out, shape: try broadcast(a.shape, b.shape))
    }

    mutating func gelu(_ mode: Int32, _ x: NNValue, _ out: String) throws -> NNValue {
        let v = x.name
        switch mode {
        case 0:
            let erf = node1("Erf", [node1("Mul", [v, scalar(Float(1 / 2.0.squareRoot()))])])
            _ = node1("Mul", [node1("Mul", [v, scalar(0.5)]), node1("Add", [erf, scalar(1)])], output: out)
        case 1:
            let cube = node1("Mul", [node1("Mul", [v, v]), v])
            let inner = node1(
                "Mul",
                [
                    node1("Add", [v, node1("Mul", [cube, scalar(0.044715)])]),
                    scalar(Float((2 / Double.pi).squareRoot())),
                ])
            _ = node1(
                "Mul", [node1("Mul", [v, scalar(0.5)]), node1("Add", [node1("Tanh", [inner]), scalar(1)])], output: out)
        case 2:
            _ = node1("Mul", [v, node1("Sigmoid", [node1("Mul", [v, scalar(1.702)])])], output: out)
        default: throw invalid("GELU mode \(mode)")
        }
        return NNValue(name: out, shape: x.shape)
    }

    // MARK: Constants

    private mutating func constantND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let p = c.p
        let out = c.out
        switch type {
        case .rangeStatic:
            try need(c, 0...0)
            let end = try p.float(NDField.RangeStatic.endValue)
            let start = try p.float(NDField.RangeStatic.startValue)
            let step = try p.float(NDField.RangeStatic.stepSizeValue)
            guard step != 0, end.isFinite, start.isFinite, step.isFinite else {
                throw invalid("range \(start)..<\(end) step \(step)")
            }
            let span = ((end - start) / step).rounded(.up)
            guard span >= 1, span <= Float(CoreMLLimits.elements) else { throw invalid("range of \(span) values") }
            let n = Int(span)
            try ConversionBudget.chargeMadeUp(n, "layer '\(c.layer.name)' (rangeStatic): a constant")
            let values = (0..<n).map { start + Float($0) * step }
            graph.initializers.append(ONNXWriter.Tensor(name: out, dims: [n], floats: values))
            return NNValue(name: out, shape: [n], constant: n <= 4096 ? values : nil)
        case .getShape:
            let values = try only(c).shape.map(Float.init)
            graph.initializers.append(ONNXWriter.Tensor(name: out, dims: [values.count], floats: values))
            return NNValue(name: out, shape: [values.count], constant: values)
        case .loadConstantND:
            try need(c, 0...0)
            return try loadConstant(p, out, rank5Output: false)
        default:  // .fillLike (the input's shape), .fillStatic (targetShape), .fillDynamic (the input's values)
            let shape: [Int]
            if type == .fillStatic {
                try need(c, 0...0)
                shape = try p.repeatedCounts(
                    NDField.Fill.targetShape, limit: CoreMLLimits.dimension, what: "targetShape")
            } else {
                let x = try only(c)
                shape = type == .fillLike ? x.shape : try constantShape(x)
            }
            let value = try p.float(NDField.Fill.value)
            let n = try elements(try checked(shape))
            try ConversionBudget.chargeMadeUp(n, "layer '\(c.layer.name)' (\(c.layer.typeName)): a \(shape) constant")
            graph.initializers.append(
                ONNXWriter.Tensor(name: out, dims: physical(shape), floats: Array(repeating: value, count: n)))
            return NNValue(name: out, shape: shape, constant: n <= 4096 ? Array(repeating: value, count: n) : nil)
        }
    }

    /// The values of a blob used as a shape (a constant computed at conversion time).
    func constantShape(_ v: NNValue) throws -> [Int] {
        guard let values = v.constant else {
            throw unsupported("a shape computed at run time (only constant shapes are converted)")
        }
        return try values.map { f in
            guard f >= 0, f <= Float(CoreMLLimits.dimension), f == f.rounded() else {
                throw invalid("shape value \(f)")
            }
            return Int(f)
        }
    }

    // MARK: Shapes and copies

    private mutating func shapeND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let p = c.p
        let out = c.out
        switch type {
        case .tile: return try tile(p, c.inputs, try first(c, 1...2), out)
        case .stack: return try stack(p, c.inputs, try first(c, 1...Int.max), out)
        case .concatND: return try concatND(p, c.inputs, try first(c, 1...Int.max), out)
        case .transpose:
            let x = try only(c)
            let axes = try p.repeatedCounts(NDField.Transpose.axes, limit: CoreMLLimits.rank, what: "axes")
            guard axes.count == x.shape.count, Set(axes) == Set(0..<axes.count) else {
                throw invalid("axes \(axes) for rank \(x.shape.count)")
            }
            _ = transpose(x.name, axes, output: out)
            return NNValue(name: out, shape: axes.map { x.shape[$0] })
        case .reverse:
            let x = try only(c)
            let flags = try p.repeatedBool(NDField.Reverse.reverseDim)
            guard flags.count == x.shape.count else { throw invalid("reverseDim \(flags) for rank \(x.shape.count)") }
            let axes = flags.enumerated().filter(\.element).map(\.offset)
            if axes.isEmpty {
                _ = identity(x.name, output: out)
            } else {
                _ = node1(
                    "Slice",
                    [
                        x.name, int64s(axes.map { _ in -1 }), int64s(axes.map { _ in Int(Int64.min / 2) }),
                        int64s(axes), int64s(axes.map { _ in -1 }),
                    ], output: out)
            }
            return NNValue(name: out, shape: x.shape)
        case .broadcastToLike, .broadcastToStatic, .broadcastToDynamic:
            return try broadcastTo(type, c)
        case .squeeze: return try squeeze(p, try only(c), out)
        case .expandDims: return try expandDims(p, try only(c), out)
        case .flattenTo2D:
            let x = try only(c)
            let rank = x.shape.count
            let axis = Int(try p.int64(NDField.Axis.axis))
            let a = axis < 0 ? axis + rank : axis
            guard a >= 0, a <= rank else { throw invalid("axis \(axis) for rank \(rank)") }
            let shape = [try elements(Array(x.shape.prefix(a))), try elements(Array(x.shape.dropFirst(a)))]
            _ = reshape(x.name, shape, output: out)
            return NNValue(name: out, shape: shape, constant: x.constant)
        case .constantPad: return try constantPad(p, c.inputs, try first(c, 1...2), out)
        default:  // .reshapeLike, .reshapeStatic, .reshapeDynamic, .rankPreservingReshape
            return try reshapeND(type, p, c.inputs, try first(c, 1...2), out)
        }
    }

    mutating func tile(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        var reps =
            inputs.count == 2
            ? try constantShape(inputs[1])
            : try p.repeatedCounts(NDField.Tile.reps, limit: CoreMLLimits.dimension, what: "reps")
        guard !reps.isEmpty, reps.count <= x.shape.count, reps.allSatisfy({ $0 > 0 }) else {
            throw invalid("reps \(reps) for rank \(x.shape.count)")
        }
        reps = Array(repeating: 1, count: x.shape.count - reps.count) + reps
        let shape = try checked(zip(x.shape, reps).map { $0 * $1 })
        _ = node1("Tile", [x.name, int64s(reps)], output: out)
        return NNValue(name: out, shape: shape)
    }

    /// `StackLayerParams`: inputs of one shape joined along a new axis.
    mutating func stack(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count + 1
        let a = try normalized(Int(try p.int64(NDField.Axis.axis)), rank: rank)
        guard inputs.allSatisfy({ $0.shape == x.shape }) else {
            throw invalid("inputs of different shapes \(inputs.map(\.shape))")
        }
        var shape = x.shape
        shape.insert(inputs.count, at: a)
        _ = node1(
            "Concat", inputs.map { node1("Unsqueeze", [$0.name, int64s([a])]) }, output: out, [.init("axis", .int(a))])
        return NNValue(name: out, shape: try checked(shape))
    }

    /// `ConcatNDLayerParams`. Inputs of lower rank are broadcast to the highest rank with leading 1s, as Core ML runs
    /// them (Create ML's action classifiers concatenate a `[1, 1]` and a `[1]` shape vector along axis 0).
    mutating func concatND(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = inputs.map(\.shape.count).max() ?? x.shape.count
        let widened = inputs.map { v -> NNValue in
            guard v.shape.count < rank else { return v }
            let shape = Array(repeating: 1, count: rank - v.shape.count) + v.shape
            return NNValue(name: reshape(v.name, shape), shape: shape, constant: v.constant)
        }
        return try concat(
            axis: Int(try p.int64(NDField.ConcatND.axis)), widened, out,
            interleave: try p.bool(NDField.ConcatND.interleave))
    }

    private mutating func broadcastTo(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let target: [Int]
        let x: NNValue
        switch type {
        case .broadcastToStatic:
            x = try only(c)
            target = try c.p.repeatedCounts(
                NDField.TargetShape.targetShape, limit: CoreMLLimits.dimension, what: "targetShape")
        case .broadcastToLike:
            let (a, b) = try pair(c)
            (x, target) = (a, b.shape)
        default:  // .broadcastToDynamic
            let (a, b) = try pair(c)
            (x, target) = (a, try constantShape(b))
        }
        let shape = try checked(try broadcast(x.shape, target))
        _ = node1("Expand", [x.name, int64s(physical(shape))], output: c.out)
        return NNValue(name: c.out, shape: shape)
    }

    /// `SqueezeLayerParams`; a rank-1 input stays rank 1.
    mutating func squeeze(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        var axes: [Int]
        if try p.bool(NDField.Squeeze.squeezeAll) {
            axes = x.shape.enumerated().filter { $0.element == 1 }.map(\.offset)
        } else {
            axes = Set(
                try p.repeatedInts(NDField.Squeeze.axes, limit: CoreMLLimits.rank, what: "axes")
                    .map { try normalized($0, rank: rank) }
            ).sorted()
            guard axes.allSatisfy({ x.shape[$0] == 1 }) else { throw invalid("squeezing axes \(axes) of \(x.shape)") }
        }
        var shape = x.shape.enumerated().filter { !axes.contains($0.offset) }.map(\.element)
        if shape.isEmpty { shape = [1] }
        _ = reshape(x.name, shape, output: out)
        return NNValue(name: out, shape: shape, constant: x.constant)
    }

    /// `ExpandDimsLayerParams`: axes of 1 inserted.
    mutating func expandDims(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let given = try p.repeatedInts(NDField.ExpandDims.axes, limit: CoreMLLimits.rank, what: "axes")
        let rank = x.shape.count + given.count
        let axes = try given.map { try normalized($0, rank: rank) }.sorted()
        guard Set(axes).count == axes.count, !axes.isEmpty else { throw invalid("axes \(given)") }
        var shape = x.shape
        for a in axes { shape.insert(1, at: a) }
        _ = reshape(x.name, try checked(shape), output: out)
        return NNValue(name: out, shape: shape, constant: x.constant)
    }

    /// `reshapeLike` (the second input's shape), `reshapeStatic` (targetShape), `reshapeDynamic` (the second input's
    /// values, −1 inferred once as in targetShape), `rankPreservingReshape` (targetShape: 0 keeps a dimension, −1 is
    /// inferred).
    mutating func reshapeND(_ type: NDLayer, _ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws
        -> NNValue
    {
        var target: [Int]
        switch type {
        case .reshapeLike:
            guard inputs.count == 2 else { throw invalid("\(inputs.count) inputs (expected 2)") }
            target = inputs[1].shape
        case .reshapeDynamic:
            guard inputs.count == 2 else { throw invalid("\(inputs.count) inputs (expected 2)") }
            guard let values = inputs[1].constant else {
                throw unsupported("a shape computed at run time (only constant shapes are converted)")
            }
            target = try values.map { f in
                guard f == -1 || (f >= 0 && f <= Float(CoreMLLimits.dimension)), f == f.rounded() else {
                    throw invalid("shape value \(f)")
                }
                return Int(f)
            }
            guard target.filter({ $0 == -1 }).count <= 1 else {
                throw invalid("target shape \(target) infers more than one dimension")
            }
        default:
            guard inputs.count == 1 else { throw invalid("\(inputs.count) inputs (expected 1)") }
            target = try p.repeatedInts(
                NDField.TargetShape.targetShape, limit: CoreMLLimits.dimension, what: "targetShape")
            if type == .rankPreservingReshape {
                guard target.count == x.shape.count else {
                    throw invalid("targetShape \(target) for rank \(x.shape.count)")
                }
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

    /// `ConstantPaddingLayerParams`: before and after amounts per axis (or to a given output size).
    mutating func constantPad(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        var amounts =
            inputs.count == 2
            ? try constantShape(inputs[1])
            : try p.repeatedCounts(NDField.ConstantPad.padAmounts, limit: CoreMLLimits.dimension, what: "padAmounts")
        guard amounts.count == 2 * rank else { throw invalid("\(amounts.count) pad amounts for rank \(rank)") }
        if try p.bool(NDField.ConstantPad.padToGivenOutputSizeMode) {
            for i in 0..<rank {
                let target = max(amounts[2 * i], amounts[2 * i + 1])
                let extra = max(0, target - x.shape[i])
                if amounts[2 * i] > 0 {
                    amounts[2 * i] = extra
                    amounts[2 * i + 1] = 0
                } else {
                    amounts[2 * i + 1] = extra
                }
            }
        }
        let shape = try checked((0..<rank).map { x.shape[$0] + amounts[2 * $0] + amounts[2 * $0 + 1] })
        let pads = (0..<rank).map { amounts[2 * $0] } + (0..<rank).map { amounts[2 * $0 + 1] }
        _ = node1(
            "Pad", [x.name, int64s(pads), scalar(try p.float(NDField.ConstantPad.value))], output: out,
            [.init("mode", .string("constant"))])
        return NNValue(name: out, shape: shape)
    }

    // MARK: Normalisations and learned layers

    private mutating func networkND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let p = c.p
        let out = c.out
        switch type {
        case .softmaxND:
            return try softmax(axis: Int(try p.int64(NDField.Axis.axis)), try only(c), out)
        case .layerNormalization:
            let x = try only(c)
            let normalized = try p.repeatedCounts(
                NDField.LayerNormalization.normalizedShape, limit: CoreMLLimits.dimension,
                what: "normalizedShape")
            guard !normalized.isEmpty, normalized.count <= x.shape.count,
                Array(x.shape.suffix(normalized.count)) == normalized
            else {
                throw invalid("normalizedShape \(normalized) for input \(x.shape)")
            }
            let n = try elements(normalized)
            let gamma = constant(
                try weights(p, NDField.LayerNormalization.gamma, count: n, what: "gamma"), dims: normalized,
                hint: "gamma")
            let beta = constant(
                try weights(p, NDField.LayerNormalization.beta, count: n, what: "beta"), dims: normalized, hint: "beta")
            _ = node1(
                "LayerNormalization", [x.name, gamma, beta], output: out,
                [
                    .init("axis", .int(-normalized.count)),
                    .init("epsilon", .float(try p.float(NDField.LayerNormalization.eps))),
                ])
            return NNValue(name: out, shape: x.shape)
        case .embeddingND:
            return try embeddingND(p, try only(c), out)
        default:  // .batchedMatmul
            return try batchedMatmul(p, c.inputs, try first(c, 1...2), out)
        }
    }
}
