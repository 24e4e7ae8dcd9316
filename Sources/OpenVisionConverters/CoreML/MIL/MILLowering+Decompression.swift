/// The `constexpr_*` weight decompressions, evaluated at conversion time as coremltools'
/// `materialized_val_inference` defines them (coremltools/converters/mil/mil/ops/defs/iOS16/constexpr_ops.py,
/// iOS18/compression.py): de-quantized values are computed in float32 and rounded to the scale's type
/// (fp16 when the scale is fp16), palette lookups copy the palette's values. iOS 16 forms keep their
/// operands as attributes, iOS 18 forms as inputs; both are read through `argument`.
extension MILLowering {
    /// The values of every output of a `constexpr_*` operation.
    mutating func decompress(_ op: MILOperation) throws -> [MILConstant] {
        func need(_ key: String) throws -> MILConstant {
            guard let c = try constant(op, key) else { throw invalid("the required input '\(key)' is missing") }
            return c
        }
        switch op.type {
        case "constexpr_affine_dequantize":
            let q = try need("quantized_data")
            let zero = try need("zero_point")
            let scale = try need("scale")
            let a = try axis(try int(op, "axis", default: 0), rank: max(q.shape.count, 1))
            return [try affineDequantize(q, zero: zero, scale: scale, axis: a)]
        case "constexpr_cast":
            let source = try need("source_val")
            let name = try string(op, "output_dtype")
            guard let target = MILDataType(textName: name) else { throw unsupported("output_dtype '\(name)'") }
            try charge(source.count, target, "the cast values")
            return [MILConstant(dataType: target, shape: source.shape, data: source.data.converted(to: target))]
        case "constexpr_lut_to_dense":
            let lut = try need("lut")
            let indices = try need("indices")
            if let shape = try constant(op, "shape") {
                return [
                    try lutToDenseIOS16(indices: indices, lut: lut, shape: shape.data.ints.map { Int(clamping: $0) })
                ]
            }
            let vectorAxis = try constant(op, "vector_axis").flatMap { $0.data.ints.first }.map { Int($0) }
            return [try lutToDense(indices: indices, lut: lut, vectorAxis: vectorAxis)]
        case "constexpr_sparse_to_dense":
            let data = try need("nonzero_data")
            let mask = try need("mask")
            if let shape = try constant(op, "shape") {
                // iOS 16: the mask is bytes, one bit per element, LSB first.
                let dims = shape.data.ints.map { Int(clamping: $0) }
                let count = try elementCount(dims)
                try chargeBytes(count, "the unpacked mask")
                let bytes = mask.data.ints.map { UInt8(truncatingIfNeeded: $0) }
                guard bytes.count * 8 >= count else {
                    throw invalid("the mask has \(bytes.count) bytes for \(count) elements")
                }
                let bits = (0..<count).map { bytes[$0 / 8] >> UInt8($0 % 8) & 1 != 0 }
                return [try sparseToDense(data: data, mask: bits, shape: dims)]
            }
            return [try sparseToDense(data: data, mask: mask.data.ints.map { $0 != 0 }, shape: mask.shape)]
        case "constexpr_blockwise_shift_scale":
            return [
                try blockwiseShiftScale(
                    data: try need("data"), scale: try need("scale"), offset: try constant(op, "offset"))
            ]
        case "constexpr_sparse_blockwise_shift_scale":
            let mask = try need("data_mask")
            let bits = mask.data.ints.map { $0 != 0 }
            let dense = try sparseToDense(data: try need("nonzero_data"), mask: bits, shape: mask.shape)
            let values = try blockwiseShiftScale(
                data: dense, scale: try need("scale"), offset: try constant(op, "offset"))
            return [mask, nonzero(values, mask: bits)]
        case "constexpr_lut_to_sparse":
            let mask = try need("indices_mask")
            let bits = mask.data.ints.map { $0 != 0 }
            let indices = try sparseToDense(data: try need("indices_nonzero_data"), mask: bits, shape: mask.shape)
            let vectorAxis = try constant(op, "vector_axis").flatMap { $0.data.ints.first }.map { Int($0) }
            let lut = try need("lut")
            let dense = try lutToDense(indices: indices, lut: lut, vectorAxis: vectorAxis)
            // The mask repeated along the vector axis.
            var outMask = mask
            if let vectorAxis, let vectorSize = lut.shape.last, vectorSize > 1 {
                let a = try axis(vectorAxis, rank: mask.shape.count)
                outMask = try repeated(mask, axis: a, times: vectorSize)
            }
            let outBits = outMask.data.ints.map { $0 != 0 }
            return [outMask, nonzero(dense, mask: outBits)]
        default:
            throw unsupported()
        }
    }

    /// The flat index into a parameter of `paramShape` for each element of `dataShape`, where each
    /// parameter entry covers a block of `dataShape[d] / paramShape[d]` consecutive elements per axis.
    func blockIndices(dataShape: [Int], paramShape: [Int]) throws -> [Int] {
        guard dataShape.count == paramShape.count else {
            throw invalid("parameter shape \(paramShape) does not have the rank of \(dataShape)")
        }
        var blocks: [Int] = []
        for (d, p) in zip(dataShape, paramShape) {
            guard p > 0, d % p == 0 else { throw invalid("parameter shape \(paramShape) does not divide \(dataShape)") }
            blocks.append(d / p)
        }
        let count = try elementCount(dataShape)
        try chargeBytes(count * 8, "the block index of every element")
        let r = dataShape.count
        var strides = [Int](repeating: 1, count: r)
        for d in stride(from: r - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * paramShape[d + 1] }
        var result = [Int](repeating: 0, count: count)
        var index = [Int](repeating: 0, count: r)
        for i in 0..<count {
            var flat = 0
            for d in 0..<r { flat += (index[d] / blocks[d]) * strides[d] }
            result[i] = flat
            var d = r - 1
            while d >= 0 {
                index[d] += 1
                if index[d] < dataShape[d] { break }
                index[d] = 0
                d -= 1
            }
        }
        return result
    }

    /// Rounds float32 results to `type` (fp16 / bf16 scales give fp16 / bf16 values).
    static func rounded(_ values: [Float], to type: MILDataType) -> [Float] {
        switch type {
        case .fp16: values.map(Half.round)
        case .bf16: values.map(Half.roundBFloat16)
        default: values
        }
    }

    /// iOS 16 `constexpr_affine_dequantize`: scale · (q − zero_point), per tensor or along `axis`,
    /// computed in float32 and rounded to the scale's type.
    func affineDequantize(_ q: MILConstant, zero: MILConstant, scale: MILConstant, axis: Int) throws -> MILConstant {
        try chargeBytes(q.count * 8, "the de-quantized values")
        let values = q.data.floats
        let s = scale.data.floats
        let z = zero.data.floats
        let axisSize = q.shape.isEmpty ? 1 : q.shape[axis]
        guard s.count == 1 || s.count == axisSize, z.count == 1 || z.count == axisSize else {
            throw invalid("scale (\(s.count)) or zero_point (\(z.count)) does not match axis \(axis) of \(q.shape)")
        }
        let inner = q.shape.isEmpty ? 1 : q.shape[(axis + 1)...].reduce(1, *)
        var out = [Float](repeating: 0, count: values.count)
        for i in 0..<values.count {
            let a = (i / max(inner, 1)) % max(axisSize, 1)
            out[i] = (values[i] - z[z.count == 1 ? 0 : a]) * s[s.count == 1 ? 0 : a]
        }
        return MILConstant(
            dataType: scale.dataType, shape: q.shape, data: .floats(Self.rounded(out, to: scale.dataType)))
    }

    /// iOS 18 `constexpr_blockwise_shift_scale`: scale · (data − offset), each scale / offset entry
    /// covering a block; the data is first converted to the scale's type, each step rounded to it
    /// (numpy arithmetic in that type, as coremltools computes it).
    func blockwiseShiftScale(data: MILConstant, scale: MILConstant, offset: MILConstant?) throws -> MILConstant {
        let map = try blockIndices(dataShape: data.shape, paramShape: scale.shape)
        if let offset, offset.shape != scale.shape {
            throw invalid("offset shape \(offset.shape) differs from scale shape \(scale.shape)")
        }
        let type = scale.dataType
        try chargeBytes(data.count * 8, "the shifted and scaled values")
        let values = Self.rounded(data.data.floats, to: type)
        let s = scale.data.floats
        let o = offset.map { Self.rounded($0.data.floats, to: type) }
        var out = [Float](repeating: 0, count: values.count)
        for i in 0..<values.count {
            var v = values[i]
            if let o {
                v -= o[map[i]]
                if type == .fp16 { v = Half.round(v) } else if type == .bf16 { v = Half.roundBFloat16(v) }
            }
            out[i] = s[map[i]] * v
        }
        return MILConstant(dataType: type, shape: data.shape, data: .floats(Self.rounded(out, to: type)))
    }

    /// iOS 16 `constexpr_lut_to_dense`: n-bit indices packed LSB-first in bytes, n = log2(palette size). The
    /// values are looked up as the indices are unpacked: no array of indices (8 bytes per element) on the way.
    func lutToDenseIOS16(indices: MILConstant, lut: MILConstant, shape: [Int]) throws -> MILConstant {
        let palette = lut.count
        guard [2, 4, 16, 64, 256].contains(palette) else { throw invalid("a palette of \(palette) entries") }
        let bits = palette.trailingZeroBitCount
        let count = try elementCount(shape)
        let packed = indices.data.ints
        guard packed.count * 8 >= count * bits else {
            throw invalid("\(packed.count) index bytes for \(count) \(bits)-bit indices")
        }
        try charge(count, lut.dataType, "the de-palettized values")
        func index(_ i: Int) -> Int {
            let start = i * bits
            let byte = start / 8
            let shift = start % 8
            var word = Int(UInt8(truncatingIfNeeded: packed[byte]))
            if shift + bits > 8 { word |= Int(UInt8(truncatingIfNeeded: packed[byte + 1])) << 8 }
            return (word >> shift) & (palette - 1)
        }
        switch lut.data {
        case .floats(let v):
            return MILConstant(dataType: lut.dataType, shape: shape, data: .floats((0..<count).map { v[index($0)] }))
        case .ints(let v):
            return MILConstant(dataType: lut.dataType, shape: shape, data: .ints((0..<count).map { v[index($0)] }))
        case .bools(let v):
            return MILConstant(dataType: lut.dataType, shape: shape, data: .bools((0..<count).map { v[index($0)] }))
        case .strings: throw invalid("a palette of strings")
        }
    }

    static func unsignedType(bits: Int) -> MILDataType {
        switch bits {
        case 1: .uint1
        case 2: .uint2
        case 3: .uint3
        case 4: .uint4
        case 6: .uint6
        default: .uint8
        }
    }

    func lookUp(_ table: MILTensorData, _ indices: [Int]) throws -> MILTensorData {
        let n = table.count
        guard indices.allSatisfy({ $0 >= 0 && $0 < n }) else {
            throw invalid("an index beyond the palette's \(n) entries")
        }
        switch table {
        case .floats(let v): return .floats(indices.map { v[$0] })
        case .ints(let v): return .ints(indices.map { v[$0] })
        case .bools(let v): return .bools(indices.map { v[$0] })
        case .strings: throw invalid("a palette of strings")
        }
    }

    /// iOS 18 `constexpr_lut_to_dense`: `lut` is [groups…, palette, vector]; the palette of an index
    /// is that of its block, and a vector palette fills `vector` consecutive elements along `vectorAxis`.
    func lutToDense(indices: MILConstant, lut: MILConstant, vectorAxis: Int?) throws -> MILConstant {
        let r = indices.shape.count
        guard lut.shape.count == r + 2 else {
            throw invalid("lut of shape \(lut.shape) for indices of shape \(indices.shape)")
        }
        let palette = lut.shape[r]
        let vector = lut.shape[r + 1]
        guard palette > 0, vector > 0 else { throw invalid("an empty palette") }
        let groupMap = try blockIndices(dataShape: indices.shape, paramShape: Array(lut.shape[..<r]))
        try chargeBytes(
            indices.count.multipliedReportingOverflow(by: vector * 8 + Self.heldSize(lut.dataType) * vector)
                .partialValue,
            "the palette positions and values")
        let idx = indices.data.ints
        guard idx.allSatisfy({ $0 >= 0 && $0 < Int64(palette) }) else {
            throw invalid("an index beyond the palette's \(palette) entries")
        }
        if vector == 1 {
            let flat = (0..<idx.count).map { groupMap[$0] * palette + Int(idx[$0]) }
            return MILConstant(dataType: lut.dataType, shape: indices.shape, data: try lookUp(lut.data, flat))
        }
        guard let vectorAxis else { throw invalid("a vector palette without vector_axis") }
        let va = try axis(vectorAxis, rank: r)
        var outShape = indices.shape
        outShape[va] *= vector
        let outCount = try elementCount(outShape)
        // Output element → (index position, component): along `va`, position p·vector + v.
        var flat = [Int](repeating: 0, count: outCount)
        let inner = indices.shape[(va + 1)...].reduce(1, *)
        let axisSize = indices.shape[va]
        for o in 0..<outCount {
            let innerPos = o % inner
            let along = (o / inner) % (axisSize * vector)
            let outer = o / (inner * axisSize * vector)
            let p = along / vector
            let v = along % vector
            let i = (outer * axisSize + p) * inner + innerPos
            flat[o] = (groupMap[i] * palette + Int(idx[i])) * vector + v
        }
        return MILConstant(dataType: lut.dataType, shape: outShape, data: try lookUp(lut.data, flat))
    }

    /// Scatters `data`'s values into the set positions of `mask` (zeros elsewhere).
    func sparseToDense(data: MILConstant, mask: [Bool], shape: [Int]) throws -> MILConstant {
        let count = try elementCount(shape)
        try charge(count, data.dataType, "the dense values")
        guard mask.count >= count else { throw invalid("the mask has \(mask.count) entries for \(count) elements") }
        let set = mask.prefix(count).filter { $0 }.count
        guard set == data.count else { throw invalid("the mask sets \(set) elements for \(data.count) values") }
        var k = 0
        switch data.data {
        case .floats(let v):
            var out = [Float](repeating: 0, count: count)
            for i in 0..<count where mask[i] {
                out[i] = v[k]
                k += 1
            }
            return MILConstant(dataType: data.dataType, shape: shape, data: .floats(out))
        case .ints(let v):
            var out = [Int64](repeating: 0, count: count)
            for i in 0..<count where mask[i] {
                out[i] = v[k]
                k += 1
            }
            return MILConstant(dataType: data.dataType, shape: shape, data: .ints(out))
        case .bools(let v):
            var out = [Bool](repeating: false, count: count)
            for i in 0..<count where mask[i] {
                out[i] = v[k]
                k += 1
            }
            return MILConstant(dataType: data.dataType, shape: shape, data: .bools(out))
        case .strings:
            throw invalid("sparse strings")
        }
    }

    /// The values of `c` at the set positions of `mask`, as a vector.
    func nonzero(_ c: MILConstant, mask: [Bool]) -> MILConstant {
        let data: MILTensorData
        switch c.data {
        case .floats(let v): data = .floats(zip(v, mask).filter { $0.1 }.map { $0.0 })
        case .ints(let v): data = .ints(zip(v, mask).filter { $0.1 }.map { $0.0 })
        case .bools(let v): data = .bools(zip(v, mask).filter { $0.1 }.map { $0.0 })
        case .strings: data = c.data
        }
        return MILConstant(dataType: c.dataType, shape: [data.count], data: data)
    }

    /// `c` with each element repeated `times` times along `axis` (numpy.repeat).
    func repeated(_ c: MILConstant, axis: Int, times: Int) throws -> MILConstant {
        try chargeBytes(
            c.count.multipliedReportingOverflow(by: times * (8 + Self.heldSize(c.dataType))).partialValue,
            "the repeated mask")
        let inner = c.shape[(axis + 1)...].reduce(1, *)
        let size = c.shape[axis]
        let outer = c.count / max(inner * size, 1)
        var indices: [Int] = []
        indices.reserveCapacity(c.count * times)
        for o in 0..<outer {
            for p in 0..<size {
                for _ in 0..<times { for i in 0..<inner { indices.append((o * size + p) * inner + i) } }
            }
        }
        var shape = c.shape
        shape[axis] *= times
        let data: MILTensorData
        switch c.data {
        case .floats(let v): data = .floats(indices.map { v[$0] })
        case .ints(let v): data = .ints(indices.map { v[$0] })
        case .bools(let v): data = .bools(indices.map { v[$0] })
        case .strings(let v): data = .strings(indices.map { v[$0] })
        }
        return MILConstant(dataType: c.dataType, shape: shape, data: data)
    }
}
