import Foundation

// The layers of Core ML's first specification versions (activations, inner product, normalisations,
// elementwise, reductions and the rank-5 data layers), as NeuralNetwork.proto defines them.
extension NeuralNetworkToONNX {
    /// A tensor broadcasting over the last three axes of a blob: `[C]` becomes `[C, 1, 1]`.
    func channelShape(_ shape: [Int]) -> [Int] { shape.count == 1 && shape[0] != 1 ? [shape[0], 1, 1] : shape }

    // MARK: Activation (130)

    /// `ActivationParams`: 5 linear {alpha 1, beta 2}, 10 ReLU, 15 leakyReLU {alpha}, 20 thresholdedReLU {alpha},
    /// 25 PReLU {alpha weights}, 30 tanh, 31 scaledTanh {alpha, beta}, 40 sigmoid, 41 sigmoidHard {alpha, beta},
    /// 50 ELU {alpha}, 60 softsign, 70 softplus, 71 parametricSoftplus {alpha, beta weights}.
    mutating func activation(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let result = NNValue(name: out, shape: x.shape)
        guard let kind = p.oneof([5, 10, 15, 20, 25, 30, 31, 40, 41, 50, 60, 70, 71]),
            let a = try p.message(kind, "activation")
        else {
            throw invalid("no activation function")
        }
        switch kind {
        case 5:
            let alpha = try a.float(1)
            let beta = try a.float(2)
            let scaled = alpha == 1 ? x.name : node1("Mul", [x.name, scalar(alpha)], output: beta == 0 ? out : nil)
            if beta != 0 {
                _ = node1("Add", [scaled, scalar(beta)], output: out)
            } else if alpha == 1 {
                _ = identity(x.name, output: out)
            }
        case 10: _ = node1("Relu", [x.name], output: out)
        case 15: _ = node1("LeakyRelu", [x.name], output: out, [.init("alpha", .float(try a.float(1)))])
        case 20:
            // x if x ≥ alpha, else 0 (ONNX's ThresholdedRelu uses >).
            let keep = node1("GreaterOrEqual", [x.name, scalar(try a.float(1))])
            _ = node1("Where", [keep, x.name, scalar(0)], output: out)
        case 25, 71:
            guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
            let c = x.shape[x.shape.count - 3]
            // Length C, or 1 for all channels.
            func perChannel(_ field: Int, _ what: String) throws -> String {
                if let values = try? weights(a, field, count: c, what: what) {
                    return constant(values, dims: [c, 1, 1], hint: what)
                }
                return constant(try weights(a, field, count: 1, what: what), dims: [1], hint: what)
            }
            if kind == 25 {
                _ = node1("PRelu", [x.name, try perChannel(1, "alpha")], output: out)
            } else {
                let alpha = try perChannel(1, "alpha")
                let beta = try perChannel(2, "beta")
                let sp = node1("Softplus", [node1("Mul", [x.name, beta])])
                _ = node1("Mul", [sp, alpha], output: out)
            }
        case 30: _ = node1("Tanh", [x.name], output: out)
        case 31:
            let t = node1("Tanh", [node1("Mul", [x.name, scalar(try a.float(2))])])
            _ = node1("Mul", [t, scalar(try a.float(1))], output: out)
        case 40: _ = node1("Sigmoid", [x.name], output: out)
        case 41:
            _ = node1(
                "HardSigmoid", [x.name], output: out,
                [.init("alpha", .float(try a.float(1))), .init("beta", .float(try a.float(2)))])
        case 50: _ = node1("Elu", [x.name], output: out, [.init("alpha", .float(try a.float(1)))])
        case 60: _ = node1("Softsign", [x.name], output: out)
        default: _ = node1("Softplus", [x.name], output: out)
        }
        return result
    }

    // MARK: Inner product (140), embedding (150)

    /// `InnerProductLayerParams`: 1 inputChannels, 2 outputChannels, 10 hasBias, 20 weights [Cout, Cin], 21 bias,
    /// 22 int8DynamicQuantize (computed here in float32 with the de-quantized weights).
    mutating func innerProduct(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let d = CoreMLLimits.dimension
        let cin = try p.count(1, limit: d, what: "inputChannels")
        let cout = try p.count(2, limit: d, what: "outputChannels")
        guard cin > 0, cout > 0 else { throw invalid("inputChannels \(cin), outputChannels \(cout)") }
        let s = x.shape
        guard (1...5).contains(s.count) else { throw invalid("input of rank \(s.count) (expected 1...5)") }
        let inner = s.count >= 4 ? try elements(Array(s.suffix(3))) : s[s.count - 1]
        guard inner == cin else { throw invalid("input \(s) gives \(inner) features, inputChannels is \(cin)") }
        let w = try weights(
            p, 20, count: try elements([cout, cin]), what: "weights", channels: .init(channels: cout, inner: cin))
        let wName = constant(w, dims: [cout, cin], hint: "W")
        var inputs = [wName]
        if try p.bool(10) {
            inputs.append(constant(try weights(p, 21, count: cout, what: "bias"), dims: [cout], hint: "B"))
        }
        let outShape: [Int]
        switch s.count {
        case 1: outShape = [cout]
        case 2: outShape = [s[0], cout]
        case 3: outShape = [s[0], s[1], cout]
        case 4: outShape = [s[0], cout, 1, 1]
        default: outShape = [s[0], s[1], cout, 1, 1]
        }
        let rows = try elements(outShape) / cout
        let p2 = physical(s)
        let matrix = p2.count == 2 && p2[1] == cin ? x.name : reshape(x.name, [rows, cin])
        let outP = physical(outShape)
        if outP.count == 2 {
            _ = node1("Gemm", [matrix] + inputs, output: out, [.init("transB", .int(1))])
        } else {
            let y = node1("Gemm", [matrix] + inputs, [.init("transB", .int(1))])
            _ = reshape(y, outP, output: out)
        }
        return NNValue(name: out, shape: outShape)
    }

    /// `EmbeddingLayerParams`: 1 inputDim, 2 outputChannels, 10 hasBias, 20 weights [Cout, inputDim], 21 bias.
    /// Input rank 4 `[x1, 1, 1, 1]` or 5 `[x1, x2, 1, 1, 1]` of indices.
    mutating func embedding(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let d = CoreMLLimits.dimension
        let vocab = try p.count(1, limit: d, what: "inputDim")
        let cout = try p.count(2, limit: d, what: "outputChannels")
        let s = x.shape
        guard s.count >= 4, s.suffix(3).allSatisfy({ $0 == 1 }) else {
            throw invalid("input \(s) (expected [..., 1, 1, 1])")
        }
        guard vocab > 0, cout > 0 else { throw invalid("inputDim \(vocab), outputChannels \(cout)") }
        let w = try weights(
            p, 20, count: try elements([cout, vocab]), what: "weights", channels: .init(channels: cout, inner: vocab))
        // Rows of the transposed table, indexed by the input.
        var table = [Float](repeating: 0, count: w.count)
        for o in 0..<cout { for i in 0..<vocab { table[i * cout + o] = w[o * vocab + i] } }
        let tName = constant(table, dims: [vocab, cout], hint: "table")
        let rows = try elements(Array(s.dropLast(3)))
        let indices = toInt64(reshape(x.name, [rows]))
        var y = node1("Gather", [tName, indices], [.init("axis", .int(0))])
        if try p.bool(10) {
            y = node1("Add", [y, constant(try weights(p, 21, count: cout, what: "bias"), dims: [cout], hint: "B")])
        }
        let outShape = Array(s.dropLast(3)) + [cout, 1, 1]
        _ = reshape(y, physical(outShape), output: out)
        return NNValue(name: out, shape: outShape)
    }

    // MARK: Normalisation (160, 165, 170, 175, 180)

    /// `BatchnormLayerParams`: 1 channels, 5 computeMeanVar, 6 instanceNormalization, 10 epsilon (0: 1e-5),
    /// 15 gamma, 16 beta, 17 mean, 18 variance; along axis −3.
    mutating func batchnorm(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let channels = try p.count(1, limit: CoreMLLimits.dimension, what: "channels")
        guard x.shape.count >= 3, x.shape[x.shape.count - 3] == channels else {
            throw invalid("\(channels) channels for an input of shape \(x.shape)")
        }
        var epsilon = try p.float(10)
        if epsilon == 0 { epsilon = 1e-5 }
        let gamma = constant(try weights(p, 15, count: channels, what: "gamma"), dims: [channels], hint: "gamma")
        let beta = constant(try weights(p, 16, count: channels, what: "beta"), dims: [channels], hint: "beta")
        let compute = try p.bool(5)
        let instance = try p.bool(6)
        if compute && instance {
            return try onNCHW(x, output: out) { c, input, nchw, output in
                _ = c.node1(
                    "InstanceNormalization", [input, gamma, beta], output: output, [.init("epsilon", .float(epsilon))])
                return Array(nchw.suffix(3))
            }
        }
        if compute {
            // Statistics of the whole batch per channel.
            return try onNCHW(x, output: out) { c, input, nchw, output in
                let mean = c.node1("ReduceMean", [input], [.init("axes", .ints([0, 2, 3]))])
                let centred = c.node1("Sub", [input, mean])
                let variance = c.node1(
                    "ReduceMean", [c.node1("Mul", [centred, centred])], [.init("axes", .ints([0, 2, 3]))])
                let std = c.node1("Sqrt", [c.node1("Add", [variance, c.scalar(epsilon)])])
                let normalised = c.node1("Div", [centred, std])
                let scaled = c.node1("Mul", [normalised, c.reshape(gamma, [channels, 1, 1])])
                _ = c.node1("Add", [scaled, c.reshape(beta, [channels, 1, 1])], output: output)
                return Array(nchw.suffix(3))
            }
        }
        let mean = constant(try weights(p, 17, count: channels, what: "mean"), dims: [channels], hint: "mean")
        let variance = constant(try weights(p, 18, count: channels, what: "variance"), dims: [channels], hint: "var")
        return try onNCHW(x, output: out) { c, input, nchw, output in
            _ = c.node1(
                "BatchNormalization", [input, gamma, beta, mean, variance], output: output,
                [.init("epsilon", .float(epsilon))])
            return Array(nchw.suffix(3))
        }
    }

    /// `MeanVarianceNormalizeLayerParams`: 1 acrossChannels, 2 normalizeVariance, 3 epsilon (0: 1e-6):
    /// `(x − mean) / sqrt(variance + ε)` over C, H, W or per channel over H, W.
    mutating func mvn(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        var epsilon = try p.float(3)
        if epsilon == 0 { epsilon = 1e-6 }
        let across = try p.bool(1)
        let normalise = try p.bool(2)
        return try onNCHW(x, output: out) { c, input, nchw, output in
            let axes: [Int] = across ? [1, 2, 3] : [2, 3]
            let mean = c.node1("ReduceMean", [input], [.init("axes", .ints(axes))])
            if !normalise {
                _ = c.node1("Sub", [input, mean], output: output)
            } else {
                let centred = c.node1("Sub", [input, mean])
                let variance = c.node1(
                    "ReduceMean", [c.node1("Mul", [centred, centred])], [.init("axes", .ints(axes))])
                _ = c.node1(
                    "Div", [centred, c.node1("Sqrt", [c.node1("Add", [variance, c.scalar(epsilon)])])], output: output)
            }
            return Array(nchw.suffix(3))
        }
    }

    /// `L2NormalizeLayerParams`: 1 epsilon (0: 1e-6): `x / sqrt(Σ x² + ε)` over C, H, W.
    mutating func l2normalize(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        var epsilon = try p.float(1)
        if epsilon == 0 { epsilon = 1e-6 }
        return try onNCHW(x, output: out) { c, input, nchw, output in
            let sum = c.node1("ReduceSumSquare", [input], [.init("axes", .ints([1, 2, 3]))])
            _ = c.node1("Div", [input, c.node1("Sqrt", [c.node1("Add", [sum, c.scalar(epsilon)])])], output: output)
            return Array(nchw.suffix(3))
        }
    }

    /// Softmax along one axis (`softmax`: −3; `softmaxND`: its `axis`).
    mutating func softmax(axis: Int, _ x: NNValue, _ out: String) throws -> NNValue {
        _ = node1("Softmax", [x.name], output: out, [.init("axis", .int(try physicalAxis(axis, of: x.shape)))])
        return NNValue(name: out, shape: x.shape)
    }

    /// `LRNLayerParams`: 1 alpha, 2 beta, 3 localSize, 4 k (0: 1), across channels.
    mutating func lrn(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let size = try p.count(3, limit: CoreMLLimits.dimension, what: "localSize")
        guard size > 0 else { throw invalid("localSize 0") }
        var k = try p.float(4)
        if k == 0 { k = 1 }
        let attributes: [ONNXWriter.Attribute] = [
            .init("alpha", .float(try p.float(1))), .init("beta", .float(try p.float(2))),
            .init("bias", .float(k)), .init("size", .int(size)),
        ]
        return try onNCHW(x, output: out) { c, input, nchw, output in
            _ = c.node1("LRN", [input], output: output, attributes)
            return Array(nchw.suffix(3))
        }
    }

    // MARK: Unary (220)

    /// `UnaryFunctionLayerParams`: 1 type (SQRT, RSQRT, INVERSE, POWER, EXP, LOG, ABS, THRESHOLD), 2 alpha,
    /// 3 epsilon (0: 1e-6), 4 shift, 5 scale (0: 1); the input is first `scale × x + shift`.
    mutating func unary(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let type = try p.int32(1)
        let alpha = try p.float(2)
        var epsilon = try p.float(3)
        if epsilon == 0 { epsilon = 1e-6 }
        var scale = try p.float(5)
        if scale == 0 { scale = 1 }
        let shift = try p.float(4)
        var v = x.name
        if scale != 1 { v = node1("Mul", [v, scalar(scale)]) }
        if shift != 0 { v = node1("Add", [v, scalar(shift)]) }
        switch type {
        case 0: _ = node1("Sqrt", [v], output: out)
        case 1: _ = node1("Reciprocal", [node1("Sqrt", [node1("Add", [v, scalar(epsilon)])])], output: out)
        case 2: _ = node1("Reciprocal", [node1("Add", [v, scalar(epsilon)])], output: out)
        case 3: _ = node1("Pow", [v, scalar(alpha)], output: out)
        case 4: _ = node1("Exp", [v], output: out)
        case 5: _ = node1("Log", [v], output: out)
        case 6: _ = node1("Abs", [v], output: out)
        case 7: _ = node1("Max", [v, scalar(alpha)], output: out)
        default: throw invalid("unary function \(type)")
        }
        return NNValue(name: out, shape: x.shape)
    }

    // MARK: Elementwise (230, 231, 240, 260, 261), scale (245), bias (250), dot (270)

    /// `add`, `multiply`, `average`, `max`, `min`: one input with a scalar (`alpha`), or several broadcast together.
    mutating func variadic(_ inputs: [NNValue], _ out: String, op: String, scalar alpha: Float?, scalarOp: String?)
        throws -> NNValue
    {
        guard !inputs.isEmpty else { throw invalid("no inputs") }
        if inputs.count == 1 {
            if let scalarOp, let alpha {
                _ = node1(scalarOp, [inputs[0].name, scalar(alpha)], output: out)
            } else {
                _ = identity(inputs[0].name, output: out)
            }
            return NNValue(name: out, shape: inputs[0].shape)
        }
        var shape = inputs[0].shape
        for v in inputs.dropFirst() { shape = try broadcast(shape, v.shape) }
        if op == "Sum" && inputs.count == 2 {
            _ = node1("Add", inputs.map(\.name), output: out)
        } else if op == "Mul" && inputs.count == 2 {
            _ = node1("Mul", inputs.map(\.name), output: out)
        } else {
            _ = node1(op, inputs.map(\.name), output: out)
        }
        return NNValue(name: out, shape: shape)
    }

    /// A `[1]`, `[C]`, `[1, H, W]` or `[C, H, W]` parameter broadcast over the last three axes of `x`.
    mutating func broadcastParameter(_ p: ProtoMessage, shapeField: Int, valuesField: Int, x: NNValue, what: String)
        throws -> String
    {
        var shape = try p.repeatedCounts(shapeField, limit: CoreMLLimits.dimension, what: "\(what) shape")
        if shape.isEmpty { shape = [1] }
        guard shape.count == 1 || shape.count == 3 else { throw invalid("\(what) shape \(shape)") }
        let values = try weights(p, valuesField, count: try elements(shape), what: what)
        return constant(values, dims: channelShape(shape), hint: what)
    }

    /// `ScaleLayerParams`: 1 shapeScale, 2 scale, 3 hasBias, 4 shapeBias, 5 bias.
    mutating func scaleLayer(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let s = try broadcastParameter(p, shapeField: 1, valuesField: 2, x: x, what: "scale")
        if try p.bool(3) {
            let b = try broadcastParameter(p, shapeField: 4, valuesField: 5, x: x, what: "bias")
            _ = node1("Add", [node1("Mul", [x.name, s]), b], output: out)
        } else {
            _ = node1("Mul", [x.name, s], output: out)
        }
        return NNValue(name: out, shape: x.shape)
    }

    /// `BiasLayerParams`: 1 shape, 2 bias.
    mutating func biasLayer(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        _ = node1(
            "Add", [x.name, try broadcastParameter(p, shapeField: 1, valuesField: 2, x: x, what: "bias")], output: out)
        return NNValue(name: out, shape: x.shape)
    }

    /// `DotProductLayerParams`: 1 cosineSimilarity; inputs `[..., C, 1, 1]`, output `[..., 1, 1, 1]`.
    mutating func dot(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        var a = inputs[0].name
        var b = inputs[1].name
        let s = inputs[0].shape
        guard s.count >= 3, s == inputs[1].shape else { throw invalid("inputs \(s) and \(inputs[1].shape)") }
        let axis = try physicalAxis(-3, of: s)
        if try p.bool(1) {
            for k in 0..<2 {
                let v = k == 0 ? a : b
                let norm = node1("Sqrt", [node1("ReduceSumSquare", [v], [.init("axes", .ints([axis]))])])
                if k == 0 { a = node1("Div", [v, norm]) } else { b = node1("Div", [v, norm]) }
            }
        }
        _ = node1("ReduceSum", [node1("Mul", [a, b]), int64s([axis])], output: out, [.init("keepdims", .int(1))])
        var shape = s
        shape[s.count - 3] = 1
        return NNValue(name: out, shape: shape)
    }

    // MARK: Reduce (280)

    /// `ReduceLayerParams`: 1 mode (SUM, AVG, PROD, LOGSUM, SUMSQUARE, L1, L2, MAX, MIN, ARGMAX), 2 epsilon
    /// (0: 1e-6), 3 axis (CHW, HW, C, H, W); reduced axes are kept as 1.
    mutating func reduce(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let mode = try p.int32(1)
        let axisCode = try p.int32(3)
        var epsilon = try p.float(2)
        if epsilon == 0 { epsilon = 1e-6 }
        let logical: [Int]
        switch axisCode {
        case 0: logical = [-3, -2, -1]
        case 1: logical = [-2, -1]
        case 2: logical = [-3]
        case 3: logical = [-2]
        case 4: logical = [-1]
        default: throw invalid("reduce axis \(axisCode)")
        }
        guard x.shape.count >= logical.count else { throw invalid("input of rank \(x.shape.count)") }
        let axes = try logical.map { try physicalAxis($0, of: x.shape) }
        var shape = x.shape
        for a in logical { shape[shape.count + a] = 1 }
        let keep = ONNXWriter.Attribute("keepdims", .int(1))
        let attributes: [ONNXWriter.Attribute] = [.init("axes", .ints(axes)), keep]
        switch mode {
        case 0: _ = node1("ReduceSum", [x.name, int64s(axes)], output: out, [keep])
        case 1: _ = node1("ReduceMean", [x.name], output: out, attributes)
        case 2: _ = node1("ReduceProd", [x.name], output: out, attributes)
        case 3:
            _ = node1(
                "ReduceSum", [node1("Log", [node1("Add", [x.name, scalar(epsilon)])]), int64s(axes)], output: out,
                [keep])
        case 4: _ = node1("ReduceSumSquare", [x.name], output: out, attributes)
        case 5: _ = node1("ReduceL1", [x.name], output: out, attributes)
        case 6: _ = node1("ReduceL2", [x.name], output: out, attributes)
        case 7: _ = node1("ReduceMax", [x.name], output: out, attributes)
        case 8: _ = node1("ReduceMin", [x.name], output: out, attributes)
        case 9:
            guard axes.count == 1 else { throw invalid("ARGMAX over more than one axis") }
            _ = toFloat(node1("ArgMax", [x.name], [.init("axis", .int(axes[0])), keep]), output: out)
        default: throw invalid("reduce mode \(mode)")
        }
        return NNValue(name: out, shape: shape)
    }

    // MARK: Constants (290)

    /// `LoadConstantLayerParams` (1 shape [C, H, W], 2 data; rank-5 output `[1, 1, C, H, W]`) and
    /// `LoadConstantNDLayerParams` (1 shape, 2 data).
    mutating func loadConstant(_ p: ProtoMessage, _ out: String, rank5Output: Bool) throws -> NNValue {
        let shape = try p.repeatedCounts(1, limit: CoreMLLimits.dimension, what: "shape")
        if rank5Output { guard shape.count == 3 else { throw invalid("shape \(shape) (expected [C, H, W])") } }
        guard !shape.isEmpty else { throw invalid("an empty shape") }
        let logical = try checked(rank5Output ? [1, 1] + shape : shape)
        let values = try weights(p, 2, count: try elements(shape), what: "data")
        graph.initializers.append(ONNXWriter.Tensor(name: out, dims: physical(logical), floats: values))
        return NNValue(name: out, shape: logical, constant: values.count <= 4096 ? values : nil)
    }

    // MARK: Rank-5 data layers (300, 301, 310, 320, 330, 340, 345, 350)

    /// The value as rank-4 `[S × B, C, H, W]` (its physical form in old networks; reshaped in N-D ones).
    mutating func rank4(_ x: NNValue) throws -> (String, [Int]) {
        guard x.shape.count == 5 else {
            throw invalid("input of rank \(x.shape.count) (expected rank 5 [Seq, Batch, C, H, W])")
        }
        let p = [x.shape[0] * x.shape[1], x.shape[2], x.shape[3], x.shape[4]]
        return (rank5 ? x.name : reshape(x.name, p), p)
    }

    /// Gives a rank-4 `[S × B, C, H, W]` result the physical form of logical rank-5 `shape`.
    mutating func fromRank4(_ name: String, _ shape: [Int], output: String) -> NNValue {
        if rank5 {
            if name != output { _ = identity(name, output: output) }
        } else {
            _ = reshape(name, shape, output: output)
        }
        return NNValue(name: output, shape: shape)
    }

    /// `ReshapeLayerParams`: 1 targetShape ([C, H, W] keeping Seq, or [Seq, C, H, W]), 2 mode (CHANNEL_FIRST, CHANNEL_LAST).
    mutating func reshapeRank5(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        var target = try p.repeatedInts(1, limit: CoreMLLimits.dimension, what: "targetShape")
        guard target.count == 3 || target.count == 4 else {
            throw invalid("targetShape \(target) (expected 3 or 4 values)")
        }
        let (input, _) = try rank4(x)
        guard x.shape[1] == 1 || target.count == 3 else { throw unsupported("a rank-5 reshape of a batch > 1") }
        let perSequence = try elements(Array(x.shape.suffix(3)))
        let total = try elements(x.shape)
        if target.count == 3 { target = [x.shape[0]] + target }
        if let unknown = target.firstIndex(of: -1) {
            let known = target.enumerated().filter { $0.offset != unknown }.reduce(1) { $0 * max($1.element, 1) }
            target[unknown] = known > 0 ? (total / x.shape[1]) / known : 0
        }
        guard target.allSatisfy({ $0 > 0 }), try elements(target) * x.shape[1] == total else {
            throw invalid("cannot reshape \(x.shape) (\(perSequence) values per sequence step) to \(target)")
        }
        let shape = try checked([target[0], x.shape[1], target[1], target[2], target[3]])
        let s4 = [target[0] * x.shape[1], target[1], target[2], target[3]]
        let y: String
        if try p.int32(2) == 1 {
            // CHANNEL_LAST: flatten in H, W, C order, reshape to [S, H, W, C], back to channels first.
            let hwc = transpose(input, [0, 2, 3, 1])
            let r = reshape(hwc, [s4[0], s4[2], s4[3], s4[1]])
            y = transpose(r, [0, 3, 1, 2])
        } else {
            y = reshape(input, s4)
        }
        return fromRank4(y, shape, output: out)
    }

    /// `FlattenLayerParams`: 1 mode (CHANNEL_FIRST, CHANNEL_LAST); `[..., C, H, W]` → `[..., C × H × W, 1, 1]`.
    mutating func flatten(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let s = x.shape
        guard s.count >= 3 else { throw invalid("input of rank \(s.count) (expected ≥ 3)") }
        let lead = Array(s.dropLast(3))
        let chw = try elements(Array(s.suffix(3)))
        let shape = lead + [chw, 1, 1]
        if try p.int32(1) == 1 && s[s.count - 2] * s[s.count - 1] > 1 && s[s.count - 3] > 1 {
            _ = try onNCHW(x, output: out) { c, input, nchw, output in
                _ = c.reshape(c.transpose(input, [0, 2, 3, 1]), [nchw[0], chw, 1, 1], output: output)
                return [chw, 1, 1]
            }
        } else {
            _ = reshape(x.name, physical(shape), output: out)
        }
        return NNValue(name: out, shape: shape)
    }

    /// `PermuteLayerParams`: 1 axis, a permutation of [Seq, C, H, W] (the batch axis stays).
    mutating func permute(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        var axes = try p.repeatedCounts(1, limit: 3, what: "axis")
        if axes.isEmpty { axes = [0, 1, 2, 3] }
        guard axes.count == 4, Set(axes) == [0, 1, 2, 3] else {
            throw invalid("axis \(axes) (expected a permutation of [0, 1, 2, 3])")
        }
        guard x.shape.count == 5 else { throw invalid("input of rank \(x.shape.count) (expected 5)") }
        let map = [0, 2, 3, 4]  // permute axis → rank-5 axis
        let perm5 = [map[axes[0]], 1, map[axes[1]], map[axes[2]], map[axes[3]]]
        let shape = perm5.map { x.shape[$0] }
        if rank5 {
            guard x.shape[1] == 1 else { throw unsupported("a permute of a rank-5 blob with batch > 1") }
            _ = transpose(x.name, axes, output: out)
        } else {
            _ = transpose(x.name, perm5, output: out)
        }
        return NNValue(name: out, shape: shape)
    }

    /// `concat` (axis −3, or −5 with sequenceConcat) and `concatND` (any axis, optionally interleaved).
    mutating func concat(axis: Int, _ inputs: [NNValue], _ out: String, interleave: Bool) throws -> NNValue {
        guard let first = inputs.first else { throw invalid("no inputs") }
        let rank = first.shape.count
        let a = try normalized(axis, rank: rank)
        var shape = first.shape
        for v in inputs.dropFirst() {
            guard v.shape.count == rank,
                v.shape.enumerated().allSatisfy({ $0.offset == a || $0.element == first.shape[$0.offset] })
            else {
                throw invalid("inputs \(inputs.map(\.shape)) do not concatenate along axis \(axis)")
            }
            shape[a] += v.shape[a]
        }
        shape = try checked(shape)
        if inputs.count == 1 {
            _ = identity(first.name, output: out)
            return NNValue(name: out, shape: shape)
        }
        let pa = try physicalAxis(axis, of: first.shape)
        if interleave {
            guard inputs.allSatisfy({ $0.shape == first.shape }) else {
                throw invalid("interleaved inputs of different shapes")
            }
            let stacked = node1(
                "Concat", inputs.map { node1("Unsqueeze", [$0.name, int64s([pa + 1])]) }, [.init("axis", .int(pa + 1))])
            _ = reshape(stacked, physical(shape), output: out)
        } else {
            _ = node1("Concat", inputs.map(\.name), output: out, [.init("axis", .int(pa))])
        }
        // Known inputs joined along their first axis of more than one element (row-major) give known values.
        let leading = first.shape.prefix(a).allSatisfy { $0 == 1 }
        let known = inputs.compactMap(\.constant)
        return NNValue(
            name: out, shape: shape,
            constant: known.count == inputs.count && leading && !interleave ? known.flatMap { $0 } : nil)
    }

    /// `SplitLayerParams`: 1 nOutputs, equal parts along axis −3.
    mutating func split(_ p: ProtoMessage, _ x: NNValue, _ outputs: [String]) throws {
        let n = try p.count(1, limit: CoreMLLimits.dimension, what: "nOutputs")
        guard n == outputs.count, n > 0 else { throw invalid("nOutputs \(n) with \(outputs.count) outputs") }
        guard x.shape.count >= 3, x.shape[x.shape.count - 3] % n == 0 else {
            throw invalid("\(x.shape) does not split into \(n) along C")
        }
        try splitInto(x, axis: -3, sizes: Array(repeating: x.shape[x.shape.count - 3] / n, count: n), outputs)
    }

    /// Splits `x` along logical `axis` into parts of `sizes`, named as the blobs `outputs`.
    mutating func splitInto(_ x: NNValue, axis: Int, sizes: [Int], _ outputs: [String]) throws {
        let a = try normalized(axis, rank: x.shape.count)
        guard sizes.reduce(0, +) == x.shape[a], sizes.allSatisfy({ $0 > 0 }) else {
            throw invalid("split sizes \(sizes) of \(x.shape[a])")
        }
        let names = outputs.map { outputName($0) }
        node(
            "Split", [x.name, int64s(sizes)], outputs: names, [.init("axis", .int(try physicalAxis(axis, of: x.shape)))]
        )
        for (k, blob) in outputs.enumerated() {
            var shape = x.shape
            shape[a] = sizes[k]
            blobs[blob] = NNValue(name: names[k], shape: shape)
        }
    }

    /// `SequenceRepeatLayerParams`: 1 nRepetitions (0: 1) along axis −5.
    mutating func sequenceRepeat(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let n = max(1, try p.count(1, limit: CoreMLLimits.dimension, what: "nRepetitions"))
        guard x.shape.count >= 5 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 5)") }
        var shape = x.shape
        shape[shape.count - 5] *= n
        shape = try checked(shape)
        var reps = [Int](repeating: 1, count: physical(x.shape).count)
        reps[try physicalAxis(-5, of: x.shape)] = n
        _ = node1("Tile", [x.name, int64s(reps)], output: out)
        return NNValue(name: out, shape: shape)
    }

    /// `ReorganizeDataLayerParams`: 1 mode (SPACE_TO_DEPTH, DEPTH_TO_SPACE, PIXEL_SHUFFLE), 2 blockSize.
    mutating func reorganizeData(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let mode = try p.int32(1)
        let b = try p.count(2, limit: CoreMLLimits.dimension, what: "blockSize")
        guard b > 1 else { throw invalid("blockSize \(b) (must be > 1)") }
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count)") }
        let c = x.shape[x.shape.count - 3]
        let h = x.shape[x.shape.count - 2]
        let w = x.shape[x.shape.count - 1]
        let chw: [Int]
        let op: String
        var attributes: [ONNXWriter.Attribute] = [.init("blocksize", .int(b))]
        switch mode {
        case 0:
            guard h % b == 0, w % b == 0 else { throw invalid("\(h) × \(w) not divisible by \(b)") }
            chw = [c * b * b, h / b, w / b]
            op = "SpaceToDepth"
        case 1, 2:
            guard c % (b * b) == 0 else { throw invalid("\(c) channels not divisible by \(b * b)") }
            chw = [c / (b * b), h * b, w * b]
            op = "DepthToSpace"
            attributes.append(.init("mode", .string(mode == 1 ? "DCR" : "CRD")))
        default: throw invalid("mode \(mode)")
        }
        return try onNCHW(x, output: out) { conv, input, _, output in
            _ = conv.node1(op, [input], output: output, attributes)
            return chw
        }
    }

    /// `SliceLayerParams`: 1 startIndex, 2 endIndex (numpy: negative counts from the end), 3 stride, 4 axis
    /// (CHANNEL −3, HEIGHT −2, WIDTH −1).
    mutating func slice(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let axisCode = try p.int32(4)
        guard (0...2).contains(axisCode) else { throw invalid("slice axis \(axisCode)") }
        let axis = Int(axisCode) - 3
        guard x.shape.count >= -axis else { throw invalid("input of rank \(x.shape.count)") }
        let n = x.shape[x.shape.count + axis]
        var start = Int(clamping: try p.int64(1))
        var end = Int(clamping: try p.int64(2))
        let stride = max(1, try p.count(3, limit: CoreMLLimits.dimension, what: "stride"))
        if start < 0 { start += n }
        if end < 0 { end += n }
        start = min(max(start, 0), n)
        end = min(max(end, 0), n)
        let length = end > start ? (end - start - 1) / stride + 1 : 0
        guard length > 0 else {
            throw invalid("slice [\(try p.int64(1)):\(try p.int64(2)):\(stride)] of \(n) values is empty")
        }
        var shape = x.shape
        shape[shape.count + axis] = length
        _ = node1(
            "Slice",
            [x.name, int64s([start]), int64s([end]), int64s([try physicalAxis(axis, of: x.shape)]), int64s([stride])],
            output: out)
        return NNValue(name: out, shape: shape)
    }
}
