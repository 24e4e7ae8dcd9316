/// Reductions, top-k, sorting and cumulative sums.
extension MILLowering {
    static let reductions: [String: String] = [
        "reduce_mean": "ReduceMean", "reduce_sum": "ReduceSum", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
        "reduce_prod": "ReduceProd", "reduce_l1_norm": "ReduceL1", "reduce_l2_norm": "ReduceL2",
        "reduce_log_sum": "ReduceLogSum", "reduce_log_sum_exp": "ReduceLogSumExp",
        "reduce_sum_square": "ReduceSumSquare",
    ]

    mutating func reduce(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let keep = try bool(op, "keep_dims", default: false)
        if op.type == "reduce_argmax" || op.type == "reduce_argmin" {
            let a = try axis(try int(op, "axis", default: -1), rank: r)
            try emitOutput(
                op, op.type == "reduce_argmax" ? "ArgMax" : "ArgMin", [tensor(x)],
                [.init("axis", .int(a)), .init("keepdims", .int(keep ? 1 : 0))], dataType: .int64)
            return
        }
        guard let onnx = Self.reductions[op.type] else { throw unsupported() }
        let axes = try ints(op, "axes").map { try $0.map { try axis($0, rank: r) } }
        // Global pooling of NCHW maps: ONNX Runtime's dedicated kernels.
        if keep, r == 4, let axes, Set(axes) == [2, 3], op.type == "reduce_mean" || op.type == "reduce_max" {
            try emitOutput(op, op.type == "reduce_mean" ? "GlobalAveragePool" : "GlobalMaxPool", [tensor(x)])
            return
        }
        var inputs = [try tensor(x)]
        var attributes: [ONNXWriter.Attribute] = [.init("keepdims", .int(keep ? 1 : 0))]
        if let axes {
            if axes.isEmpty {
                try alias(op, 0, x)
                return
            }
            if onnx == "ReduceSum" {
                inputs.append(int64Constant(axes.map(Int64.init)))
            } else {
                attributes.append(.init("axes", .ints(axes)))
            }
        }
        try emitOutput(op, onnx, inputs, attributes)
    }

    /// The size of `axis` of `value` as a one-element int64 tensor (a constant when declared).
    mutating func dimensionTensor(_ value: MILLowered, axis: Int) throws -> String {
        if let d = info(value).shape?[axis] ?? nil { return int64Constant([Int64(d)]) }
        let shape = node("Shape", [try tensor(value)])
        return node("Gather", [shape, int64Constant([Int64(axis)])], [.init("axis", .int(0))])
    }

    mutating func topk(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let a = try axis(try int(op, "axis", default: -1), rank: r)
        let ascending = try bool(op, "ascending", default: false)
        let sorted = try bool(op, "sort", default: true)
        let k = try int(op, "k", default: 1)
        let values = outputName(op, 0)
        let indices = op.outputs.count > 1 ? outputName(op, 1) : fresh("topk_indices")
        emit(
            "TopK", [try tensor(x), int64Constant([Int64(k)])], [values, indices],
            [.init("axis", .int(a)), .init("largest", .int(ascending ? 0 : 1)), .init("sorted", .int(sorted ? 1 : 0))])
        try define(op, 0, values)
        if op.outputs.count > 1 { try define(op, 1, indices, dataType: .int64) }
    }

    mutating func argsort(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let a = try axis(try int(op, "axis", default: -1), rank: r)
        let ascending = try bool(op, "ascending", default: false)
        let k = try dimensionTensor(x, axis: a)
        let values = fresh("argsort_values")
        let indices = outputName(op, 0)
        emit(
            "TopK", [try tensor(x), k], [values, indices],
            [.init("axis", .int(a)), .init("largest", .int(ascending ? 0 : 1)), .init("sorted", .int(1))])
        try define(op, 0, indices, dataType: .int64)
    }

    mutating func cumsum(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let a = try axis(try int(op, "axis", default: 0), rank: r)
        try emitOutput(
            op, "CumSum", [tensor(x), int64Constant([Int64(a)], dims: [])],
            [
                .init("exclusive", .int(try bool(op, "exclusive", default: false) ? 1 : 0)),
                .init("reverse", .int(try bool(op, "reverse", default: false) ? 1 : 0)),
            ])
    }
}
