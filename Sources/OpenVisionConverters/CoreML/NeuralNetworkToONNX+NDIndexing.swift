import Foundation

// The N-D layers that index, slice, sort, reduce and multiply (NeuralNetwork.proto, specification 4 and later).
extension NeuralNetworkToONNX {
    mutating func indexingND(_ type: NDLayer, _ c: NDCall) throws -> NNValue {
        let p = c.p
        let out = c.out
        switch type {
        case .gather:
            let (data, indices) = try pair(c)
            return try gather(Int(try p.int64(NDField.Axis.axis)), data, indices, out)
        case .gatherND:
            let (params, indices) = try pair(c)
            guard let k = indices.shape.last, k <= params.shape.count, !indices.shape.isEmpty else {
                throw invalid("indices \(indices.shape) for data \(params.shape)")
            }
            let shape = Array(indices.shape.dropLast()) + Array(params.shape.dropFirst(k))
            _ = node1("GatherND", [params.name, toInt64(indices.name)], output: out)
            return NNValue(name: out, shape: shape.isEmpty ? [1] : shape)
        case .gatherAlongAxis:
            let (data, indices) = try pair(c)
            let a = try normalized(Int(try p.int64(NDField.Axis.axis)), rank: data.shape.count)
            _ = node1("GatherElements", [data.name, toInt64(indices.name)], output: out, [.init("axis", .int(a))])
            return NNValue(name: out, shape: indices.shape)
        case .sliceStatic: return try sliceStatic(p, try only(c), out)
        case .sliceDynamic: return try sliceDynamic(p, c.inputs, try first(c, 2...7), out)
        case .sliceBySize:
            // The second input is the start.
            let (x, start) = try pair(c)
            let a = try normalized(Int(try p.int64(NDField.SliceBySize.axis)), rank: x.shape.count)
            let size = try p.count(NDField.SliceBySize.size, limit: CoreMLLimits.dimension, what: "size")
            guard size > 0, size <= x.shape[a] else { throw invalid("size \(size) of \(x.shape[a])") }
            let begin = node1("Reshape", [toInt64(start.name), int64s([1])])
            let end = node1("Add", [begin, int64s([size])])
            _ = node1("Slice", [x.name, begin, end, int64s([try physicalAxis(a, of: x.shape)])], output: out)
            var shape = x.shape
            shape[a] = size
            return NNValue(name: out, shape: shape)
        case .argMin, .argMax:
            let x = try only(c)
            let a = try normalized(Int(try p.int64(NDField.ArgReduce.axis)), rank: x.shape.count)
            let remove = try p.bool(NDField.ArgReduce.removeDim) && x.shape.count > 1
            var shape = x.shape
            if remove { shape.remove(at: a) } else { shape[a] = 1 }
            _ = toFloat(
                node1(
                    type == .argMax ? "ArgMax" : "ArgMin", [x.name],
                    [.init("axis", .int(a)), .init("keepdims", .int(remove ? 0 : 1))]), output: out)
            return NNValue(name: out, shape: shape)
        case .argSort:
            let x = try only(c)
            let a = try normalized(Int(try p.int64(NDField.ArgSort.axis)), rank: x.shape.count)
            let outs = node(
                "TopK", [x.name, int64s([x.shape[a]])], count: 2,
                [
                    .init("axis", .int(a)), .init("largest", .int(try p.bool(NDField.ArgSort.descending) ? 1 : 0)),
                    .init("sorted", .int(1)),
                ])
            _ = toFloat(outs[1], output: out)
            return NNValue(name: out, shape: x.shape)
        case .oneHot: return try oneHot(p, c.inputs, try first(c, 1...2), out)
        case .cumSum:
            let x = try only(c)
            let a = try normalized(Int(try p.int64(NDField.CumSum.axis)), rank: x.shape.count)
            _ = node1(
                "CumSum", [x.name, int64Scalar(a)], output: out,
                [
                    .init("exclusive", .int(try p.bool(NDField.CumSum.excludeFinalSum) ? 1 : 0)),
                    .init("reverse", .int(try p.bool(NDField.CumSum.reverse) ? 1 : 0)),
                ])
            return NNValue(name: out, shape: x.shape)
        default:  // .matrixBandPart, .lowerTriangular, .upperTriangular
            return try band(type, p, try only(c), out)
        }
    }

    /// `matrixBandPart` (numLower, numUpper; −1 keeps the whole side), `lowerTriangular` and `upperTriangular` (k).
    private mutating func band(_ type: NDLayer, _ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        guard x.shape.count >= 2 else { throw invalid("input of rank \(x.shape.count)") }
        var y = x.name
        switch type {
        case .lowerTriangular:
            y = node1(
                "Trilu", [y, int64Scalar(Int(try p.int64(NDField.Triangular.k)))], output: out,
                [.init("upper", .int(0))])
        case .upperTriangular:
            y = node1(
                "Trilu", [y, int64Scalar(Int(try p.int64(NDField.Triangular.k)))], output: out,
                [.init("upper", .int(1))])
        default:
            let lower = Int(try p.int64(NDField.MatrixBandPart.numLower))
            let upper = Int(try p.int64(NDField.MatrixBandPart.numUpper))
            if upper >= 0 { y = node1("Trilu", [y, int64Scalar(upper)], [.init("upper", .int(0))]) }
            if lower >= 0 { y = node1("Trilu", [y, int64Scalar(-lower)], [.init("upper", .int(1))]) }
            _ = identity(y, output: out)
        }
        return NNValue(name: out, shape: x.shape)
    }

    /// `SplitNDLayerParams`: equal parts (numSplits) or the given sizes along an axis, one output each.
    mutating func splitND(_ c: NDCall) throws {
        let x = try only(c)
        let a = try normalized(Int(try c.p.int64(NDField.SplitND.axis)), rank: x.shape.count)
        var sizes = try c.p.repeatedCounts(
            NDField.SplitND.splitSizes, limit: CoreMLLimits.dimension, what: "splitSizes")
        if sizes.isEmpty {
            let n = try c.p.count(NDField.SplitND.numSplits, limit: CoreMLLimits.dimension, what: "numSplits")
            guard n > 0, x.shape[a] % n == 0 else { throw invalid("\(x.shape[a]) does not split into \(n)") }
            sizes = Array(repeating: x.shape[a] / n, count: n)
        }
        guard sizes.count == c.layer.outputs.count else {
            throw invalid("\(sizes.count) splits for \(c.layer.outputs.count) outputs")
        }
        try splitInto(x, axis: a, sizes: sizes, c.layer.outputs)
    }

    mutating func reduceND(_ op: String, _ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        let keep = try p.bool(NDField.Reduce.keepDims)
        let axes =
            try p.bool(NDField.Reduce.reduceAll)
            ? Array(0..<rank)
            : Set(
                try p.repeatedInts(NDField.Reduce.axes, limit: CoreMLLimits.rank, what: "axes").map {
                    try normalized($0, rank: rank)
                }
            ).sorted()
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

    mutating func gather(_ axis: Int, _ data: NNValue, _ indices: NNValue, _ out: String) throws -> NNValue {
        let a = try normalized(axis, rank: data.shape.count)
        var shape = Array(data.shape.prefix(a)) + indices.shape + Array(data.shape.dropFirst(a + 1))
        _ = node1("Gather", [data.name, toInt64(indices.name)], output: out, [.init("axis", .int(a))])
        if shape.isEmpty { shape = [1] }
        // A gather from a known vector at known indices (a shape's dimension) is known too.
        var values: [Float]?
        if let table = data.constant, let picks = indices.constant, data.shape.count == 1, table.count == data.shape[0]
        {
            values = try picks.map { f in
                guard f == f.rounded(), f >= Float(-table.count), f < Float(table.count) else {
                    throw invalid("index \(f) of \(table.count) values")
                }
                let i = Int(f)
                return table[i < 0 ? i + table.count : i]
            }
        }
        return NNValue(name: out, shape: try checked(shape), constant: values)
    }

    /// Start, end and step of one axis of a numpy slice with masks (Core ML's sliceStatic/sliceDynamic).
    func sliceBounds(size n: Int, begin: Int, end: Int, stride: Int, beginMask: Bool, endMask: Bool) throws -> (
        Int, Int, Int
    ) {
        guard stride != 0 else { throw invalid("stride 0") }
        var b = begin
        var e = end
        if stride > 0 {
            if beginMask {
                b = 0
            } else {
                if b < 0 { b += n }
                b = min(max(b, 0), n)
            }
            if endMask {
                e = n
            } else {
                if e < 0 { e += n }
                e = min(max(e, 0), n)
            }
            return (b, e, e > b ? (e - b - 1) / stride + 1 : 0)
        }
        if beginMask {
            b = n - 1
        } else {
            if b < 0 { b += n }
            b = min(max(b, -1), n - 1)
        }
        if endMask {
            e = -1
        } else {
            if e < 0 { e += n }
            e = min(max(e, -1), n - 1)
        }
        return (b, e, b > e ? (b - e - 1) / -stride + 1 : 0)
    }

    /// `SliceStaticLayerParams`: begins, ends, strides, masks and squeezed axes as fields.
    mutating func sliceStatic(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        let limit = Int(Int32.max)
        var strides = try p.repeatedInts(NDField.Slice.strides, limit: limit, what: "strides")
        var beginMasks = try p.repeatedBool(NDField.Slice.beginMasks)
        var endMasks = try p.repeatedBool(NDField.Slice.endMasks)
        var squeeze = try p.repeatedBool(NDField.Slice.squeezeMasks)
        if strides.isEmpty { strides = Array(repeating: 1, count: rank) }
        if beginMasks.isEmpty { beginMasks = Array(repeating: false, count: rank) }
        if endMasks.isEmpty { endMasks = Array(repeating: false, count: rank) }
        if squeeze.isEmpty { squeeze = Array(repeating: false, count: rank) }
        return try sliceStaticValues(
            x, begin: try p.repeatedInts(NDField.Slice.beginIds, limit: limit, what: "beginIds"),
            end: try p.repeatedInts(NDField.Slice.endIds, limit: limit, what: "endIds"), strides: strides,
            beginMasks: beginMasks, endMasks: endMasks, squeeze: squeeze, out)
    }

    /// `SliceDynamicLayerParams`; inputs data, beginIds, then optionally endIds, strides, beginMasks, endMasks,
    /// squeezeMasks. Converted when the parameters are known at conversion time (constants): the output shape of a
    /// run-time slice is not.
    mutating func sliceDynamic(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        let rank = x.shape.count
        func ints(_ v: NNValue) throws -> [Int] {
            guard let c = v.constant else { throw unsupported("a run-time slice parameter other than begin/end") }
            return c.map { Int($0) }
        }
        let limit = Int(Int32.max)
        var strides =
            inputs.count > 3
            ? try ints(inputs[3]) : try p.repeatedInts(NDField.Slice.strides, limit: limit, what: "strides")
        var beginMasks =
            inputs.count > 4 ? try ints(inputs[4]).map { $0 != 0 } : try p.repeatedBool(NDField.Slice.beginMasks)
        var endMasks =
            inputs.count > 5 ? try ints(inputs[5]).map { $0 != 0 } : try p.repeatedBool(NDField.Slice.endMasks)
        var squeeze =
            inputs.count > 6 ? try ints(inputs[6]).map { $0 != 0 } : try p.repeatedBool(NDField.Slice.squeezeMasks)
        if strides.isEmpty { strides = Array(repeating: 1, count: rank) }
        if beginMasks.isEmpty { beginMasks = Array(repeating: false, count: rank) }
        if endMasks.isEmpty { endMasks = Array(repeating: false, count: rank) }
        if squeeze.isEmpty { squeeze = Array(repeating: false, count: rank) }
        let endStatic = inputs.count > 2 ? nil : try p.repeatedInts(NDField.Slice.endIds, limit: limit, what: "endIds")
        // Everything constant: a static slice.
        let end: [Int]? = inputs.count > 2 ? inputs[2].constant?.map { Int($0) } : endStatic ?? []
        if let begin = inputs[1].constant, let end {
            return try sliceStaticValues(
                x, begin: begin.map { Int($0) }, end: end, strides: strides, beginMasks: beginMasks,
                endMasks: endMasks, squeeze: squeeze, out)
        }
        guard !squeeze.contains(true), strides.count == rank, beginMasks.count == rank, endMasks.count == rank else {
            throw unsupported("a run-time slice with squeezed axes")
        }
        throw unsupported("a slice whose begin is computed at run time (output size unknown at conversion)")
    }

    mutating func sliceStaticValues(
        _ x: NNValue, begin: [Int], end: [Int], strides: [Int], beginMasks: [Bool], endMasks: [Bool],
        squeeze: [Bool], _ out: String
    ) throws -> NNValue {
        let rank = x.shape.count
        guard
            [begin.count, end.count, strides.count, beginMasks.count, endMasks.count, squeeze.count].allSatisfy({
                $0 == rank
            })
        else {
            throw invalid("slice parameters of lengths \([begin.count, end.count, strides.count]) for rank \(rank)")
        }
        var starts: [Int] = []
        var ends: [Int] = []
        var steps: [Int] = []
        var axes: [Int] = []
        var shape: [Int] = []
        var squeezed = false
        for a in 0..<rank {
            let n = x.shape[a]
            if squeeze[a] {
                var b = begin[a]
                if b < 0 { b += n }
                guard b >= 0, b < n else { throw invalid("index \(begin[a]) of \(n)") }
                starts.append(b)
                ends.append(b + 1)
                steps.append(1)
                axes.append(a)
                squeezed = true
                continue
            }
            let (b, e, length) = try sliceBounds(
                size: n, begin: begin[a], end: end[a], stride: strides[a],
                beginMask: beginMasks[a], endMask: endMasks[a])
            guard length > 0 else { throw invalid("an empty slice of axis \(a)") }
            shape.append(length)
            starts.append(b)
            ends.append(e < 0 ? Int(Int64.min / 2) : e)
            steps.append(strides[a])
            axes.append(a)
        }
        let y = node1(
            "Slice", [x.name, int64s(starts), int64s(ends), int64s(axes), int64s(steps)], output: squeezed ? nil : out)
        if squeezed {
            if shape.isEmpty { shape = [1] }
            _ = reshape(y, shape, output: out)
        }
        return NNValue(name: out, shape: try checked(shape))
    }

    /// `TopKLayerParams`: K from the field or the second input; outputs values and (optionally) indices.
    mutating func topK(_ c: NDCall) throws {
        let x = try first(c, 1...2)
        let p = c.p
        let outputs = c.layer.outputs
        let a = try normalized(Int(try p.int64(NDField.TopK.axis)), rank: x.shape.count)
        let k =
            c.inputs.count == 2
            ? try constantShape(c.inputs[1]).first ?? 0
            : try p.count(NDField.TopK.k, limit: CoreMLLimits.dimension, what: "K")
        guard k > 0, k <= x.shape[a] else { throw invalid("K \(k) for \(x.shape[a]) values") }
        guard (1...2).contains(outputs.count) else { throw invalid("\(outputs.count) outputs") }
        let names = outputs.map { outputName($0) }
        let raw = node(
            "TopK", [x.name, int64s([k])], count: 2,
            [
                .init("axis", .int(a)), .init("largest", .int(try p.bool(NDField.TopK.useBottomK) ? 0 : 1)),
                .init("sorted", .int(1)),
            ])
        var shape = x.shape
        shape[a] = k
        _ = identity(raw[0], output: names[0])
        blobs[outputs[0]] = NNValue(name: names[0], shape: shape)
        if outputs.count == 2 {
            _ = toFloat(raw[1], output: names[1])
            blobs[outputs[1]] = NNValue(name: names[1], shape: shape)
        }
    }

    /// `EmbeddingNDLayerParams`: weights [E, V] and an optional bias; input `[..., 1]` of indices, output `[..., E]`.
    mutating func embeddingND(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let d = CoreMLLimits.dimension
        let vocab = try p.count(NDField.EmbeddingND.vocabSize, limit: d, what: "vocabSize")
        let size = try p.count(NDField.EmbeddingND.embeddingSize, limit: d, what: "embeddingSize")
        guard vocab > 0, size > 0, x.shape.count >= 1, x.shape.last == 1 else {
            throw invalid("input \(x.shape), vocab \(vocab), size \(size)")
        }
        let w = try weights(
            p, NDField.EmbeddingND.weights, count: try elements([size, vocab]), what: "weights",
            channels: .init(channels: size, inner: vocab))
        var table = [Float](repeating: 0, count: w.count)
        for o in 0..<size { for i in 0..<vocab { table[i * size + o] = w[o * vocab + i] } }
        let tName = constant(table, dims: [vocab, size], hint: "table")
        let lead = Array(x.shape.dropLast())
        let indices = toInt64(reshape(x.name, lead.isEmpty ? [1] : lead))
        var y = node1("Gather", [tName, indices], [.init("axis", .int(0))])
        if try p.bool(NDField.EmbeddingND.hasBias) {
            y = node1(
                "Add",
                [
                    y,
                    constant(
                        try weights(p, NDField.EmbeddingND.bias, count: size, what: "bias"), dims: [size], hint: "B"),
                ])
        }
        let shape = (lead.isEmpty ? [1] : lead) + [size]
        _ = identity(y, output: out)
        return NNValue(name: out, shape: shape)
    }

    /// `BatchedMatMulLayerParams`: two inputs, or one and a weight matrix X1 × X2 (stored column-major) with an
    /// optional bias.
    mutating func batchedMatmul(_ p: ProtoMessage, _ inputs: [NNValue], _ first: NNValue, _ out: String) throws
        -> NNValue
    {
        var a = first
        let f = NDField.BatchedMatMul.self
        if inputs.count == 1 {
            let d = CoreMLLimits.dimension
            let x1 = try p.count(f.weightMatrixFirstDimension, limit: d, what: "weightMatrixFirstDimension")
            let x2 = try p.count(f.weightMatrixSecondDimension, limit: d, what: "weightMatrixSecondDimension")
            guard x1 > 0, x2 > 0, a.shape.last == x1 else {
                throw invalid("input \(a.shape) for a \(x1) × \(x2) weight matrix")
            }
            // Stored column-major [X1, X2] = row-major [X2, X1]; per-channel scales run along X2.
            let stored = try weights(
                p, f.weights, count: try elements([x1, x2]), what: "weights", channels: .init(channels: x2, inner: x1))
            var matrix = [Float](repeating: 0, count: stored.count)
            for j in 0..<x2 { for i in 0..<x1 { matrix[i * x2 + j] = stored[j * x1 + i] } }
            var y = node1("MatMul", [a.name, constant(matrix, dims: [x1, x2], hint: "W")])
            if try p.bool(f.hasBias) {
                y = node1("Add", [y, constant(try weights(p, f.bias, count: x2, what: "bias"), dims: [x2], hint: "B")])
            }
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
        if try p.bool(f.transposeA) { a = swapLast(a) }
        if try p.bool(f.transposeB) { b = swapLast(b) }
        guard a.shape.last == b.shape[b.shape.count - 2] else { throw invalid("matrices \(a.shape) × \(b.shape)") }
        let batch = try broadcast(Array(a.shape.dropLast(2)), Array(b.shape.dropLast(2)))
        _ = node1("MatMul", [a.name, b.name], output: out)
        return NNValue(name: out, shape: try checked(batch + [a.shape[a.shape.count - 2], b.shape[b.shape.count - 1]]))
    }

    /// `OneHotLayerParams`: size from the field or the second input's value; negative indices give all `offValue`
    /// (ONNX would wrap them).
    mutating func oneHot(_ p: ProtoMessage, _ inputs: [NNValue], _ x: NNValue, _ out: String) throws -> NNValue {
        let depth =
            inputs.count == 2
            ? try constantShape(inputs[1]).first ?? 0
            : try p.count(NDField.OneHot.oneHotVectorSize, limit: CoreMLLimits.dimension, what: "oneHotVectorSize")
        guard depth > 0 else { throw invalid("one-hot size \(depth)") }
        let rank = x.shape.count + 1
        let a = try normalized(Int(try p.int64(NDField.OneHot.axis)), rank: rank)
        let indices = toInt64(x.name)
        let negative = node1("Less", [indices, int64Scalar(0)])
        let safe = node1("Where", [negative, int64Scalar(depth), indices])
        let values = constant(
            [try p.float(NDField.OneHot.offValue), try p.float(NDField.OneHot.onValue)], dims: [2], hint: "onoff")
        _ = node1("OneHot", [safe, int64Scalar(depth), values], output: out, [.init("axis", .int(a))])
        var shape = x.shape
        shape.insert(depth, at: a)
        return NNValue(name: out, shape: try checked(shape))
    }
}
