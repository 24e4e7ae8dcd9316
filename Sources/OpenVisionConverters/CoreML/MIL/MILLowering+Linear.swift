/// Convolutions, fully connected layers, matrix products, pooling and normalizations.
extension MILLowering {
    /// ONNX `pads` ([begins…, ends…]) from MIL's [before0, after0, before1, after1, …].
    static func onnxPads(_ pad: [Int], spatial: Int) -> [Int] {
        guard pad.count == 2 * spatial else { return [Int](repeating: 0, count: 2 * spatial) }
        return (0..<spatial).map { pad[2 * $0] } + (0..<spatial).map { pad[2 * $0 + 1] }
    }

    /// `pads` or `auto_pad` attributes for MIL's `pad_type` / `pad` (conv and pooling).
    mutating func padAttributes(_ op: MILOperation, spatial: Int) throws -> [ONNXWriter.Attribute] {
        let padType = try string(op, "pad_type", default: "valid").lowercased()
        switch padType {
        case "valid": return [.init("pads", .ints([Int](repeating: 0, count: 2 * spatial)))]
        case "custom":
            let pad = try ints(op, "pad") ?? [Int](repeating: 0, count: 2 * spatial)
            guard pad.count == 2 * spatial else {
                throw invalid("pad has \(pad.count) values for \(spatial) spatial dimensions")
            }
            return [.init("pads", .ints(Self.onnxPads(pad, spatial: spatial)))]
        case "same": return [.init("auto_pad", .string("SAME_UPPER"))]
        case "same_lower": return [.init("auto_pad", .string("SAME_LOWER"))]
        default: throw unsupported("pad_type '\(padType)'")
        }
    }

    mutating func spatialInts(_ op: MILOperation, _ key: String, spatial: Int, default value: Int) throws -> [Int] {
        let v = try ints(op, key) ?? [Int](repeating: value, count: spatial)
        guard v.count == spatial else {
            throw invalid("'\(key)' has \(v.count) values for \(spatial) spatial dimensions")
        }
        return v
    }

    mutating func conv(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let w = try required(op, "weight")
        let r = try rank(x)
        guard r >= 3, r <= 5 else { throw unsupported("rank \(r) input") }
        let spatial = r - 2
        var attributes = [
            ONNXWriter.Attribute("strides", .ints(try spatialInts(op, "strides", spatial: spatial, default: 1))),
            .init("dilations", .ints(try spatialInts(op, "dilations", spatial: spatial, default: 1))),
            .init("group", .int(try int(op, "groups", default: 1))),
        ]
        attributes += try padAttributes(op, spatial: spatial)
        if let kernel = info(w).shape, kernel.count == r, kernel[2...].allSatisfy({ $0 != nil }) {
            attributes.append(.init("kernel_shape", .ints(kernel[2...].map { $0! })))
        }
        var inputs = [try tensor(x, as: .float), try tensor(w, as: .float)]
        if let b = try argument(op, "bias") { inputs.append(try tensor(b, as: .float)) }
        try emitOutput(op, "Conv", inputs, attributes)
    }

    mutating func convTranspose(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let w = try required(op, "weight")
        let r = try rank(x)
        guard r >= 3, r <= 5 else { throw unsupported("rank \(r) input") }
        let spatial = r - 2
        let strides = try spatialInts(op, "strides", spatial: spatial, default: 1)
        let dilations = try spatialInts(op, "dilations", spatial: spatial, default: 1)
        guard let kernelShape = info(w).shape, kernelShape.count == r, kernelShape[2...].allSatisfy({ $0 != nil })
        else {
            throw unsupported("the weight's shape is unknown")
        }
        let kernel = kernelShape[2...].map { $0! }
        var attributes = [
            ONNXWriter.Attribute("strides", .ints(strides)), .init("dilations", .ints(dilations)),
            .init("group", .int(try int(op, "groups", default: 1))), .init("kernel_shape", .ints(kernel)),
        ]
        let padType = try string(op, "pad_type", default: "valid").lowercased()
        var pads = [Int](repeating: 0, count: 2 * spatial)
        if padType == "custom" {
            let pad = try ints(op, "pad") ?? pads
            guard pad.count == 2 * spatial else { throw invalid("pad has \(pad.count) values") }
            pads = Self.onnxPads(pad, spatial: spatial)
        } else if padType != "valid" && padType != "same" {
            throw unsupported("pad_type '\(padType)'")
        }
        let outputShape = try ints(op, "output_shape")
        let inputShape = info(x).shape
        var outputPadding = [Int](repeating: 0, count: spatial)
        if padType == "same" || outputShape != nil {
            // The padding (or output padding) that gives the output size MIL defines.
            for i in 0..<spatial {
                guard let din = inputShape?[2 + i] ?? nil else {
                    if padType == "same" && outputShape == nil {
                        attributes.append(.init("auto_pad", .string("SAME_UPPER")))
                        break
                    }
                    throw unsupported("output_shape with an unknown input size")
                }
                let full = strides[i] * (din - 1) + (kernel[i] - 1) * dilations[i] + 1
                let target =
                    outputShape.flatMap { $0.count == r ? $0[2 + i] : ($0.count == spatial ? $0[i] : nil) }
                    ?? (padType == "same" ? din * strides[i] : full - pads[i] - pads[spatial + i])
                if padType == "same" {
                    let crop = full - target
                    if crop >= 0 {
                        pads[i] = crop / 2
                        pads[spatial + i] = crop - crop / 2
                    } else {
                        outputPadding[i] = -crop
                    }
                } else {
                    outputPadding[i] = target - (full - pads[i] - pads[spatial + i])
                    guard outputPadding[i] >= 0 else {
                        throw invalid("output_shape \(outputShape!) is smaller than the padding allows")
                    }
                }
            }
        }
        if !attributes.contains(where: { $0.name == "auto_pad" }) {
            attributes.append(.init("pads", .ints(pads)))
            if outputPadding.contains(where: { $0 != 0 }) {
                attributes.append(.init("output_padding", .ints(outputPadding)))
            }
        }
        var inputs = [try tensor(x, as: .float), try tensor(w, as: .float)]
        if let b = try argument(op, "bias") { inputs.append(try tensor(b, as: .float)) }
        try emitOutput(op, "ConvTranspose", inputs, attributes)
    }

    /// `linear`: x · weightᵀ + bias; Gemm for rank-2 inputs, else MatMul with the weight transposed here.
    mutating func linear(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let w = try required(op, "weight")
        let bias = try argument(op, "bias")
        let r = try rank(x)
        if r == 2 {
            var inputs = [try tensor(x, as: .float), try tensor(w, as: .float)]
            if let bias { inputs.append(try tensor(bias, as: .float)) }
            try emitOutput(op, "Gemm", inputs, [.init("transB", .int(1))])
            return
        }
        let wt: String
        if case .constant(let c) = w, c.shape.count == 2 {
            let (rows, cols) = (c.shape[0], c.shape[1])
            let v = c.data.floats
            var t = [Float](repeating: 0, count: v.count)
            for i in 0..<rows { for j in 0..<cols { t[j * rows + i] = v[i * cols + j] } }
            wt = floatConstant(t, dims: [cols, rows])
        } else {
            wt = node("Transpose", [try tensor(w, as: .float)], [.init("perm", .ints([1, 0]))])
        }
        let product = node(
            "MatMul", [try tensor(x, as: .float), wt], base: (op.outputs.first?.name ?? "linear") + "_matmul")
        if let bias {
            try emitOutput(op, "Add", [product, try tensor(bias, as: .float)])
        } else {
            try define(op, 0, product)
        }
    }

    /// Swaps the last two axes of `value` (a constant is transposed here).
    mutating func transposedLastTwo(_ value: MILLowered) throws -> String {
        let r = try rank(value)
        guard r >= 2 else { return try tensor(value) }
        if case .constant(let c) = value, c.dataType.isFloat {
            let rows = c.shape[r - 2]
            let cols = c.shape[r - 1]
            let batch = c.count / max(rows * cols, 1)
            let v = c.data.floats
            var t = [Float](repeating: 0, count: v.count)
            for b in 0..<batch {
                let base = b * rows * cols
                for i in 0..<rows { for j in 0..<cols { t[base + j * rows + i] = v[base + i * cols + j] } }
            }
            var dims = c.shape
            dims.swapAt(r - 2, r - 1)
            return floatConstant(t, dims: dims)
        }
        var perm = Array(0..<r)
        perm.swapAt(r - 2, r - 1)
        return node("Transpose", [try tensor(value)], [.init("perm", .ints(perm))])
    }

    mutating func matmul(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let y = try required(op, "y")
        let type = runtimeType(x, y)
        let a = try bool(op, "transpose_x", default: false) ? try transposedLastTwo(x) : try tensor(x, as: type)
        let b = try bool(op, "transpose_y", default: false) ? try transposedLastTwo(y) : try tensor(y, as: type)
        try emitOutput(op, "MatMul", [a, b])
    }

    mutating func einsum(_ op: MILOperation) throws {
        let operands = try arguments(op, "values")
        let equation = try string(op, "equation")
        try emitOutput(
            op, "Einsum", try operands.map { try tensor($0, as: .float) }, [.init("equation", .string(equation))])
    }

    /// `scaled_dot_product_attention` (iOS 18): softmax(Q·Kᵀ / √E + mask)·V; a bool mask keeps the
    /// scores where it is true (−∞ elsewhere), a float mask is added.
    mutating func scaledDotProductAttention(_ op: MILOperation) throws {
        let q = try required(op, "query")
        let k = try required(op, "key")
        let v = try required(op, "value")
        guard let qShape = info(q).shape, qShape.count >= 3, let e = qShape.last ?? nil, e > 0 else {
            throw unsupported("the query's embedding size is unknown")
        }
        let product = node("MatMul", [try tensor(q, as: .float), try transposedLastTwo(k)])
        var scores = node("Mul", [product, scalar(1 / Float(e).squareRoot())])
        if let mask = try argument(op, "attn_mask") {
            if info(mask).dataType == .bool {
                scores = node("Where", [try tensor(mask, as: .bool), scores, scalar(-.infinity)])
            } else {
                scores = node("Add", [scores, try tensor(mask, as: .float)])
            }
        }
        let weights = node("Softmax", [scores], [.init("axis", .int(-1))])
        try emitOutput(op, "MatMul", [weights, try tensor(v, as: .float)])
    }

    // MARK: Pooling

    mutating func pool(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        guard r >= 3, r <= 5 else { throw unsupported("rank \(r) input") }
        let spatial = r - 2
        let kernel = try spatialInts(op, "kernel_sizes", spatial: spatial, default: 1)
        var attributes = [
            ONNXWriter.Attribute("kernel_shape", .ints(kernel)),
            .init("strides", .ints(try spatialInts(op, "strides", spatial: spatial, default: 1))),
        ]
        attributes += try padAttributes(op, spatial: spatial)
        let ceil = try bool(op, "ceil_mode", default: false)
        switch op.type {
        case "avg_pool":
            attributes.append(
                .init("count_include_pad", .int(try bool(op, "exclude_padding_from_average", default: false) ? 0 : 1)))
            if ceil { attributes.append(.init("ceil_mode", .int(1))) }
            try emitOutput(op, "AveragePool", [tensor(x)], attributes)
        case "max_pool":
            if ceil { attributes.append(.init("ceil_mode", .int(1))) }
            try emitOutput(op, "MaxPool", [tensor(x)], attributes)
        default:
            guard !ceil else { throw unsupported("l2_pool with ceil_mode") }
            attributes.append(.init("p", .int(2)))
            try emitOutput(op, "LpPool", [tensor(x)], attributes)
        }
    }

    // MARK: Normalization

    /// A [C] float constant parameter, or `fill` repeated C times when absent.
    mutating func channelVector(_ op: MILOperation, _ key: String, channels: Int?, fill: Float) throws -> String {
        if let c = try constant(op, key) { return floatConstant(c.data.floats, dims: [c.count]) }
        guard let channels else { throw unsupported("'\(key)' is absent and the channel count is unknown") }
        _ = try generated(channels)
        return floatConstant([Float](repeating: fill, count: channels), dims: [channels])
    }

    func channels(_ value: MILLowered) -> Int? {
        guard let s = info(value).shape, s.count >= 2 else { return nil }
        return s[1]
    }

    mutating func batchNorm(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let mean = try input(op, "mean", as: .float)
        let variance = try input(op, "variance", as: .float)
        let meanCount = try constant(op, "mean")?.count
        let c = channels(x) ?? meanCount
        let gamma = try channelVector(op, "gamma", channels: c, fill: 1)
        let beta = try channelVector(op, "beta", channels: c, fill: 0)
        let epsilon = try float(op, "epsilon", default: 1e-5)
        try emitOutput(
            op, "BatchNormalization", [tensor(x), gamma, beta, mean, variance], [.init("epsilon", .float(epsilon))])
    }

    mutating func instanceNorm(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let c = channels(x)
        let gamma = try channelVector(op, "gamma", channels: c, fill: 1)
        let beta = try channelVector(op, "beta", channels: c, fill: 0)
        let epsilon = try float(op, "epsilon", default: 1e-5)
        try emitOutput(op, "InstanceNormalization", [tensor(x), gamma, beta], [.init("epsilon", .float(epsilon))])
    }

    mutating func layerNorm(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let axes = try (ints(op, "axes") ?? Array(0..<r)).map { try axis($0, rank: r) }
        let sortedAxes = Array(Set(axes)).sorted()
        let epsilon = try float(op, "epsilon", default: 1e-5)
        let shape = info(x).shape
        let gamma = try constant(op, "gamma")
        let beta = try constant(op, "beta")
        // The parameters broadcast over x: x's sizes on the normalized axes, 1 elsewhere.
        let normalizedDims = sortedAxes.map { shape?[$0] ?? nil }
        func broadcastDims(_ count: Int) -> [Int]? {
            guard normalizedDims.allSatisfy({ $0 != nil }), normalizedDims.map({ $0! }).reduce(1, *) == count else {
                return nil
            }
            return (0..<r).map { sortedAxes.contains($0) ? shape![$0]! : 1 }
        }
        let trailing =
            !sortedAxes.isEmpty && sortedAxes == Array((r - sortedAxes.count)..<r) && sortedAxes == axes.sorted()
        if trailing, normalizedDims.allSatisfy({ $0 != nil }) {
            let dims = normalizedDims.map { $0! }
            let count = try generated(try elementCount(dims))
            guard (gamma?.count ?? count) == count, (beta?.count ?? count) == count else {
                throw invalid("gamma/beta do not match the normalized shape \(dims)")
            }
            let scale = floatConstant(gamma?.data.floats ?? [Float](repeating: 1, count: count), dims: dims)
            let bias = floatConstant(beta?.data.floats ?? [Float](repeating: 0, count: count), dims: dims)
            try emitOutput(
                op, "LayerNormalization", [tensor(x), scale, bias],
                [.init("axis", .int(sortedAxes[0])), .init("epsilon", .float(epsilon))])
            return
        }
        let name = try tensor(x)
        let mean = node("ReduceMean", [name], [.init("axes", .ints(sortedAxes)), .init("keepdims", .int(1))])
        let centered = node("Sub", [name, mean])
        let variance = node(
            "ReduceMean", [node("Mul", [centered, centered])],
            [.init("axes", .ints(sortedAxes)), .init("keepdims", .int(1))])
        var y = node("Div", [centered, node("Sqrt", [node("Add", [variance, scalar(epsilon)])])])
        if let gamma {
            guard let dims = broadcastDims(gamma.count) else {
                throw unsupported("gamma with unknown normalized sizes")
            }
            y = node("Mul", [y, floatConstant(gamma.data.floats, dims: dims)])
        }
        if let beta {
            guard let dims = broadcastDims(beta.count) else { throw unsupported("beta with unknown normalized sizes") }
            y = node("Add", [y, floatConstant(beta.data.floats, dims: dims)])
        }
        try define(op, 0, y)
    }

    /// `l2_norm`: x / sqrt(Σx² + ε) over the last three axes (all of a rank ≤ 3 tensor, the last of a rank-2 one).
    mutating func l2Norm(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let axes = r >= 3 ? Array((r - 3)..<r) : (r == 2 ? [1] : [0])
        let epsilon = try float(op, "epsilon", default: 1e-6)
        let name = try tensor(x)
        let sumSquares = node("ReduceSumSquare", [name], [.init("axes", .ints(axes)), .init("keepdims", .int(1))])
        let norm = node("Sqrt", [node("Add", [sumSquares, scalar(epsilon)])])
        try emitOutput(op, "Div", [name, norm])
    }

    mutating func localResponseNorm(_ op: MILOperation) throws {
        let x = try input(op, "x")
        try emitOutput(
            op, "LRN", [x],
            [
                .init("size", .int(try int(op, "size"))), .init("alpha", .float(try float(op, "alpha", default: 1e-4))),
                .init("beta", .float(try float(op, "beta", default: 0.75))),
                .init("bias", .float(try float(op, "k", default: 1))),
            ])
    }
}
