import Foundation

/// Constant tensors: decoded (float16, quantized, sparse) into float32 or int64 initializers.
extension TFLiteToONNX {
    /// The constant tensor `t` decoded (float16 → float32), nil when it has no data.
    mutating func constant(_ t: Int, sparseValues: Bool = false) throws -> Constant? {
        if let c = constants[t] { return c }
        let tensor = model.tensors[t]
        guard tensor.sparsity == nil || sparseValues else {
            throw ConversionError(
                .unsupported,
                "operator \(operatorIndex) reads the sparse tensor '\(tensor.name)' "
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
            throw ConversionError(
                .syntax, "constant '\(tensor.name)' holds \(bytes.count) bytes for shape \(tensor.shape)")
        }
        // Each tensor is decoded on its own, even when several share one buffer.
        try ConversionBudget.charge(
            expected * (tensor.type == .float32 || tensor.type == .float16 ? 4 : 8),
            "constant '\(tensor.name)'")
        let base = bytes.startIndex
        func u16(_ i: Int) -> UInt16 { UInt16(bytes[base + 2 * i]) | UInt16(bytes[base + 2 * i + 1]) << 8 }
        func u32(_ i: Int) -> UInt32 {
            let o = base + 4 * i
            return UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3])
                << 24
        }
        var c = Constant(shape: tensor.shape)
        switch tensor.type {
        case .float32: c.floats = (0..<expected).map { Float(bitPattern: u32($0)) }
        case .float16: c.floats = (0..<expected).map { Self.halfToFloat(u16($0)) }
        case .int32: c.ints = (0..<expected).map { Int64(Int32(bitPattern: u32($0))) }
        case .int16: c.ints = (0..<expected).map { Int64(Int16(bitPattern: u16($0))) }
        case .int64:
            c.ints = (0..<expected).map { Int64(bitPattern: UInt64(u32(2 * $0)) | UInt64(u32(2 * $0 + 1)) << 32) }
        case .int8: c.ints = (0..<expected).map { Int64(Int8(bitPattern: bytes[base + $0])) }
        case .uint8, .bool: c.ints = (0..<expected).map { Int64(bytes[base + $0]) }
        default: break
        }
        if tensor.sparsity == nil { constants[t] = c }
        return c
    }

    /// A constant's integer values (a shape, axes, paddings).
    mutating func intConstant(_ t: Int, op: Int, opName: String) throws -> [Int64] {
        guard let c = try constant(t), let ints = c.ints else {
            throw ConversionError(
                .unsupported,
                "operator \(op) (\(opName)) is not supported: needs a constant integer tensor '\(model.tensors[t].name)'"
            )
        }
        return ints
    }

    /// The dense values of a sparse constant (`SparsityParameters` without block maps: TFLite's
    /// `FormatConverter`, dense and CSR dimensions in traversal order).
    mutating func densify(_ t: Int) throws -> Constant? {
        let tensor = model.tensors[t]
        guard let sparsity = tensor.sparsity else { return try constant(t) }
        guard let values = try constant(t, sparseValues: true) else { return nil }
        let fail = ConversionError(.syntax, "sparse tensor '\(tensor.name)' has inconsistent sparsity parameters")
        guard sparsity.blockMap.isEmpty else {
            throw ConversionError(.unsupported, "sparse tensor '\(tensor.name)' uses block sparsity")
        }
        let shape = tensor.shape
        let rank = shape.count
        guard sparsity.dimensions.count == rank, sparsity.traversalOrder.sorted() == Array(0..<rank) else { throw fail }
        let count = try Self.elementCount(shape, name: tensor.name)
        guard count <= 1 << 24 else {
            throw ConversionError(.limitExceeded, "sparse tensor '\(tensor.name)' of shape \(shape) is too large")
        }
        try ConversionBudget.charge(count * 16, "sparse tensor '\(tensor.name)' made dense")
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
            let dim = sparsity.dimensions[level]
            let axis = sparsity.traversalOrder[level]
            if !dim.isSparse {
                guard dim.denseSize == shape[axis] else { throw fail }
                for j in stride(from: dim.denseSize - 1, through: 0, by: -1) {
                    stack.append((level + 1, position * dim.denseSize + j, offset + j * strides[axis]))
                }
            } else {
                guard position + 1 < dim.segments.count else { throw fail }
                let start = dim.segments[position]
                let end = dim.segments[position + 1]
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
        let exponent = Int(h >> 10 & 0x1F)
        let mantissa = Int(h & 0x3FF)
        switch exponent {
        case 0: return sign * Float(mantissa) * 0x1p-24
        case 31: return mantissa == 0 ? sign * .infinity : .nan
        default:
            return Float(
                bitPattern: UInt32(h & 0x8000) << 16 | UInt32(exponent - 15 + 127) << 23 | UInt32(mantissa) << 13)
        }
    }

    /// `c` with its axes permuted (`perm[i]` is the source axis of result axis i).
    func permute(_ c: Constant, _ perm: [Int]) -> Constant {
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
}
