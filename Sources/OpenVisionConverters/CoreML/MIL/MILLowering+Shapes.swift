/// Shape and data-movement operations: reshape, transpose, slicing, concatenation, padding, gathers, …
extension MILLowering {
    static let int32Max = Int64(Int32.max)

    mutating func lowerShapeOperation(_ op: MILOperation) throws {
        switch op.type {
        case "reshape": try reshape(op)
        case "transpose":
            guard let perm = try ints(op, "perm") else { throw invalid("perm is missing") }
            let x = try required(op, "x")
            let r = try rank(x)
            try emitOutput(op, "Transpose", [tensor(x)], [.init("perm", .ints(try perm.map { try axis($0, rank: r) }))])
        case "squeeze": try squeeze(op)
        case "expand_dims":
            let x = try required(op, "x")
            guard let axes = try ints(op, "axes") else { throw invalid("axes is missing") }
            let outRank = try rank(x) + axes.count
            let normalized = try axes.map { try axis($0, rank: outRank) }
            try emitOutput(op, "Unsqueeze", [tensor(x), int64Constant(normalized.map(Int64.init))])
        case "flatten2d":
            let x = try required(op, "x")
            let r = try rank(x)
            var a = try int(op, "axis", default: 1)
            if a < 0 { a += r }
            guard a >= 0, a <= r else { throw invalid("axis out of range") }
            try emitOutput(op, "Flatten", [tensor(x)], [.init("axis", .int(a))])
        case "concat": try concat(op)
        case "split": try split(op)
        case "stack":
            let items = try arguments(op, "values")
            guard let first = items.first else { throw invalid("stack of nothing") }
            let outRank = try rank(first) + 1
            let a = try axis(try int(op, "axis"), rank: outRank)
            let type = items.lazy.compactMap { item -> ONNXWriter.DataType? in
                if case .tensor(let t) = item { return t.onnxType }
                return nil
            }.first
            let axesName = int64Constant([Int64(a)])
            let expanded = try items.map { node("Unsqueeze", [try tensor($0, as: type), axesName]) }
            try emitOutput(op, "Concat", expanded, [.init("axis", .int(a))])
        case "tile":
            try emitOutput(op, "Tile", [input(op, "x"), input(op, "reps", as: .int64)])
        case "pad": try pad(op)
        case "slice_by_index": try sliceByIndex(op)
        case "slice_by_size": try sliceBySize(op)
        case "gather":
            let x = try required(op, "x")
            let r = try rank(x)
            guard try int(op, "batch_dims", default: 0) == 0 else { throw unsupported("batch_dims > 0") }
            try emitOutput(
                op, "Gather", [tensor(x), input(op, "indices", as: .int64)],
                [.init("axis", .int(try axis(try int(op, "axis", default: 0), rank: r)))])
        case "gather_along_axis":
            let x = try required(op, "x")
            let r = try rank(x)
            try emitOutput(
                op, "GatherElements", [tensor(x), input(op, "indices", as: .int64)],
                [.init("axis", .int(try axis(try int(op, "axis", default: 0), rank: r)))])
        case "gather_nd":
            try emitOutput(
                op, "GatherND", [input(op, "x"), input(op, "indices", as: .int64)],
                [.init("batch_dims", .int(try int(op, "batch_dims", default: 0)))])
        case "shape":
            let x = try required(op, "x")
            if let dims = info(x).shape, dims.allSatisfy({ $0 != nil }) {
                try alias(
                    op, 0,
                    .constant(
                        MILConstant(
                            dataType: .int32, shape: [dims.count], data: .ints(dims.map { Int64($0!) }),
                            milName: op.outputs.first?.name)))
            } else {
                try emitOutput(op, "Shape", [tensor(x)], dataType: .int32)
            }
        case "fill", "fill_like":
            let shape =
                op.type == "fill" ? try input(op, "shape", as: .int64) : node("Shape", [try input(op, "ref_tensor")])
            let dataType = outputType(op).dataType ?? .fp32
            let value = try float(op, "value", default: 0)
            let fillValue: ONNXWriter.Tensor
            switch Self.onnxType(dataType) {
            case .float: fillValue = ONNXWriter.Tensor(name: "value", dims: [1], floats: [value])
            case .bool: fillValue = ONNXWriter.Tensor(name: "value", dims: [1], bools: [value != 0])
            default: fillValue = ONNXWriter.Tensor(name: "value", dims: [1], int64s: [try integer(value)])
            }
            try emitOutput(op, "ConstantOfShape", [shape], [.init("value", .tensor(fillValue))])
        case "range_1d":
            let start = try required(op, "start")
            let end = try required(op, "end")
            let step = try required(op, "step")
            let type = runtimeType(start, end) ?? runtimeType(step, step) ?? .float
            try emitOutput(
                op, "Range",
                [tensor(start, as: type), tensor(end, as: type), tensor(step, as: type)].map { v in
                    // Range takes scalars.
                    node("Reshape", [v, int64Constant([], dims: [0])])
                })
        case "space_to_depth":
            try emitOutput(op, "SpaceToDepth", [input(op, "x")], [.init("blocksize", .int(try int(op, "block_size")))])
        case "depth_to_space":
            try emitOutput(
                op, "DepthToSpace", [input(op, "x")],
                [.init("blocksize", .int(try int(op, "block_size"))), .init("mode", .string("DCR"))])
        case "pixel_shuffle":
            try emitOutput(
                op, "DepthToSpace", [input(op, "x")],
                [.init("blocksize", .int(try int(op, "upscale_factor"))), .init("mode", .string("CRD"))])
        case "pixel_unshuffle": try pixelUnshuffle(op)
        case "reverse":
            let x = try required(op, "x")
            let r = try rank(x)
            let axes = try (ints(op, "axes") ?? Array(0..<r)).map { try axis($0, rank: r) }
            guard !axes.isEmpty else { return try alias(op, 0, x) }
            let n = axes.count
            try emitOutput(
                op, "Slice",
                [
                    tensor(x), int64Constant([Int64](repeating: -1, count: n)),
                    int64Constant([Int64](repeating: Int64.min, count: n)),
                    int64Constant(axes.map(Int64.init)), int64Constant([Int64](repeating: -1, count: n)),
                ])
        case "one_hot":
            let indices = try required(op, "indices")
            let outRank = try rank(indices) + 1
            let a = try axis(try int(op, "axis", default: -1), rank: outRank)
            let depth = node("Reshape", [try input(op, "one_hot_vector_size", as: .int64), int64Constant([1])])
            let dataType = outputType(op).dataType ?? .fp32
            let on = try float(op, "on_value", default: 1)
            let off = try float(op, "off_value", default: 0)
            let valuesName: String
            switch Self.onnxType(dataType) {
            case .float: valuesName = floatConstant([off, on], dims: [2])
            default: valuesName = int64Constant([try integer(off), try integer(on)])
            }
            try emitOutput(op, "OneHot", [tensor(indices, as: .int64), depth, valuesName], [.init("axis", .int(a))])
        case "band_part":
            // Keeps i − j ≤ lower and j − i ≤ upper (negative: no bound) on the last two axes: Trilu twice.
            var y = try input(op, "x")
            let lower = try int(op, "lower", default: -1)
            let upper = try int(op, "upper", default: -1)
            if lower >= 0 {
                y = node("Trilu", [y, int64Constant([Int64(-lower)], dims: [])], [.init("upper", .int(1))])
            }
            if upper >= 0 {
                y = node("Trilu", [y, int64Constant([Int64(upper)], dims: [])], [.init("upper", .int(0))])
            }
            try define(op, 0, y)
        case "scatter_along_axis", "scatter_nd":
            let data = try required(op, "data")
            let type = info(data).dataType.map(Self.onnxType)
            var updates = try input(op, "updates", as: type)
            let mode = try string(op, "mode", default: "add")
            let reduction: String
            switch mode {
            case "update": reduction = "none"
            case "add": reduction = "add"
            case "sub":
                reduction = "add"
                updates = node("Neg", [updates])
            case "mul": reduction = "mul"
            default: throw unsupported("scatter mode '\(mode)'")
            }
            let indices = try input(op, "indices", as: .int64)
            if op.type == "scatter_nd" {
                try emitOutput(
                    op, "ScatterND", [tensor(data), indices, updates], [.init("reduction", .string(reduction))])
            } else {
                let a = try axis(try int(op, "axis", default: 0), rank: try rank(data))
                try emitOutput(
                    op, "ScatterElements", [tensor(data), indices, updates],
                    [.init("axis", .int(a)), .init("reduction", .string(reduction))])
            }
        case "non_zero":
            let found = node("NonZero", [try input(op, "x")])
            try emitOutput(op, "Transpose", [found], [.init("perm", .ints([1, 0]))], dataType: .int64)
        default:
            throw unsupported()
        }
    }

    mutating func reshape(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let shape: String
        if let declared = outputType(op).shape, declared.allSatisfy({ $0 != nil }) {
            shape = int64Constant(declared.map { Int64($0!) })
        } else {
            shape = try input(op, "shape", as: .int64)
        }
        try emitOutput(op, "Reshape", [tensor(x), shape])
    }

    mutating func squeeze(_ op: MILOperation) throws {
        let x = try required(op, "x")
        if let axes = try ints(op, "axes") {
            let r = try rank(x)
            try emitOutput(op, "Squeeze", [tensor(x), int64Constant(try axes.map { Int64(try axis($0, rank: r)) })])
        } else if let dims = info(x).shape, dims.allSatisfy({ $0 != nil }) {
            let axes = dims.indices.filter { dims[$0] == 1 }
            if axes.isEmpty { return try alias(op, 0, x) }
            try emitOutput(op, "Squeeze", [tensor(x), int64Constant(axes.map(Int64.init))])
        } else {
            try emitOutput(op, "Squeeze", [tensor(x)])
        }
    }

    mutating func concat(_ op: MILOperation) throws {
        let items = try arguments(op, "values")
        guard let first = items.first else { throw invalid("concat of nothing") }
        let r = try rank(first)
        let a = try axis(try int(op, "axis"), rank: r)
        let type =
            items.lazy.compactMap { item -> ONNXWriter.DataType? in
                if case .tensor(let t) = item { return t.onnxType }
                return nil
            }.first ?? info(first).dataType.map(Self.onnxType)
        let names = try items.map { try tensor($0, as: type) }
        if items.count == 1 { return try alias(op, 0, first) }
        guard try bool(op, "interleave", default: false) else {
            try emitOutput(op, "Concat", names, [.init("axis", .int(a))])
            return
        }
        // Interleaved: stack along a new axis after `a`, then merge the two.
        guard let declared = outputType(op).shape, declared.allSatisfy({ $0 != nil }) else {
            throw unsupported("interleave with an unknown output shape")
        }
        let axisName = int64Constant([Int64(a + 1)])
        let stacked = node("Concat", names.map { node("Unsqueeze", [$0, axisName]) }, [.init("axis", .int(a + 1))])
        try emitOutput(op, "Reshape", [stacked, int64Constant(declared.map { Int64($0!) })])
    }

    mutating func split(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let a = try axis(try int(op, "axis"), rank: r)
        var inputs = [try tensor(x)]
        if let sizes = try ints(op, "split_sizes") {
            inputs.append(int64Constant(sizes.map(Int64.init)))
        } else if let total = info(x).shape?[a] ?? nil, !op.outputs.isEmpty {
            let n = op.outputs.count
            guard total % n == 0 else { throw invalid("\(total) is not divisible into \(n) parts") }
            inputs.append(int64Constant([Int64](repeating: Int64(total / n), count: n)))
        }
        let outputs = op.outputs.indices.map { outputName(op, $0) }
        emit("Split", inputs, outputs, [.init("axis", .int(a))])
        for (i, name) in outputs.enumerated() { try define(op, i, name) }
    }

    mutating func pad(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let modeName = try string(op, "mode", default: "constant")
        let mode: String
        switch modeName {
        case "constant": mode = "constant"
        case "reflect": mode = "reflect"
        case "replicate": mode = "edge"
        default: throw unsupported("pad mode '\(modeName)'")
        }
        let padValue = try required(op, "pad")
        let padsName: String
        if case .constant(let c) = padValue {
            let p = c.data.ints
            guard p.count % 2 == 0, p.count / 2 <= r else { throw invalid("pad has \(p.count) values for rank \(r)") }
            let n = p.count / 2
            var begins = [Int64](repeating: 0, count: r)
            var ends = [Int64](repeating: 0, count: r)
            for i in 0..<n {
                begins[r - n + i] = p[2 * i]
                ends[r - n + i] = p[2 * i + 1]
            }
            padsName = int64Constant(begins + ends)
        } else {
            // A runtime pad of 2·rank values [b0, e0, b1, e1, …] → [b0, b1, …, e0, e1, …].
            let p = try tensor(padValue, as: .int64)
            let pairs = node("Reshape", [p, int64Constant([Int64(r), 2])])
            padsName = node(
                "Reshape", [node("Transpose", [pairs], [.init("perm", .ints([1, 0]))]), int64Constant([-1])])
        }
        var inputs = [try tensor(x), padsName]
        if mode == "constant" {
            let value = try float(op, "constant_val", default: 0)
            inputs.append(
                info(x).dataType?.isFloat == false ? int64Constant([try integer(value)], dims: []) : scalar(value))
        }
        try emitOutput(op, "Pad", inputs, [.init("mode", .string(mode))])
    }

    /// `slice_by_index`: numpy `x[b0:e0:s0, …]` with begin / end masks and squeezed axes.
    mutating func sliceByIndex(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let stride = try ints(op, "stride").map { $0.map(Int64.init) } ?? [Int64](repeating: 1, count: r)
        let beginMask = try constant(op, "begin_mask")?.data.ints.map { $0 != 0 } ?? [Bool](repeating: false, count: r)
        let endMask = try constant(op, "end_mask")?.data.ints.map { $0 != 0 } ?? [Bool](repeating: false, count: r)
        let squeezeMask =
            try constant(op, "squeeze_mask")?.data.ints.map { $0 != 0 } ?? [Bool](repeating: false, count: r)
        guard stride.count == r, beginMask.count == r, endMask.count == r, squeezeMask.count == r else {
            throw invalid("stride or masks do not have \(r) values")
        }
        guard !stride.contains(0) else { throw invalid("a stride is 0") }
        let beginValue = try required(op, "begin")
        let endValue = try required(op, "end")
        let squeezed = (0..<r).filter { squeezeMask[$0] }
        var axes: [Int64] = []
        var starts: [Int64] = []
        var ends: [Int64] = []
        var steps: [Int64] = []
        let startsName: String
        let endsName: String
        if case .constant(let bc) = beginValue, case .constant(let ec) = endValue {
            let begin = bc.data.ints
            let end = ec.data.ints
            guard begin.count == r, end.count == r else { throw invalid("begin/end do not have \(r) values") }
            for i in 0..<r {
                var s = stride[i]
                var b = begin[i]
                var e = end[i]
                if squeezeMask[i] {
                    s = 1
                    e = b == -1 ? Int64.max : b + 1
                } else {
                    if beginMask[i] { b = s > 0 ? 0 : Int64.max }
                    if endMask[i] { e = s > 0 ? Int64.max : Int64.min }
                }
                // Axes taken whole are left out of the Slice.
                let dim = info(x).shape?[i] ?? nil
                if s == 1, b == 0, e == Int64.max || (dim != nil && e >= Int64(dim!)) { continue }
                axes.append(Int64(i))
                starts.append(b)
                ends.append(e)
                steps.append(s)
            }
            if axes.isEmpty && squeezed.isEmpty { return try alias(op, 0, x) }
            startsName = int64Constant(starts)
            endsName = int64Constant(ends)
        } else {
            guard !beginMask.contains(true), !endMask.contains(true), squeezed.isEmpty else {
                throw unsupported("runtime begin/end with masks")
            }
            axes = (0..<r).map(Int64.init)
            steps = stride
            startsName = try tensor(beginValue, as: .int64)
            endsName = try tensor(endValue, as: .int64)
        }
        var result = try tensor(x)
        if !axes.isEmpty {
            result = node(
                "Slice", [result, startsName, endsName, int64Constant(axes), int64Constant(steps)],
                base: (op.outputs.first?.name ?? "slice") + (squeezed.isEmpty ? "" : "_slice"))
        }
        if !squeezed.isEmpty {
            result = node(
                "Squeeze", [result, int64Constant(squeezed.map(Int64.init))], base: op.outputs.first?.name ?? "squeeze")
        }
        try define(op, 0, result)
    }

    /// `slice_by_size`: `size[i]` elements from `begin[i]` (−1: to the end).
    mutating func sliceBySize(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        guard let size = try ints(op, "size"), size.count == r else { throw invalid("size must be \(r) constants") }
        let beginValue = try required(op, "begin")
        if case .constant(let bc) = beginValue {
            let begin = bc.data.ints
            guard begin.count == r else { throw invalid("begin must have \(r) values") }
            let ends = (0..<r).map { size[$0] < 0 ? Int64.max : begin[$0] + Int64(size[$0]) }
            try emitOutput(
                op, "Slice",
                [tensor(x), int64Constant(begin), int64Constant(ends), int64Constant((0..<r).map(Int64.init))])
        } else {
            let begin = try tensor(beginValue, as: .int64)
            let sizes = int64Constant(size.map { $0 < 0 ? Self.int32Max : Int64($0) })
            let ends = node("Add", [begin, sizes])
            try emitOutput(op, "Slice", [tensor(x), begin, ends, int64Constant((0..<r).map(Int64.init))])
        }
    }

    mutating func pixelUnshuffle(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let f = try int(op, "downscale_factor")
        guard let dims = info(x).shape, dims.count == 4, dims.allSatisfy({ $0 != nil }) else {
            throw unsupported("pixel_unshuffle needs a known rank-4 shape")
        }
        let (n, c, h, w) = (Int64(dims[0]!), Int64(dims[1]!), Int64(dims[2]!), Int64(dims[3]!))
        let ff = Int64(f)
        guard f > 0, h % ff == 0, w % ff == 0 else { throw invalid("sizes not divisible by \(f)") }
        let split = node("Reshape", [try tensor(x), int64Constant([n, c, h / ff, ff, w / ff, ff])])
        let moved = node("Transpose", [split], [.init("perm", .ints([0, 1, 3, 5, 2, 4]))])
        try emitOutput(op, "Reshape", [moved, int64Constant([n, c * ff * ff, h / ff, w / ff])])
    }
}
