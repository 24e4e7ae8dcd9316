import Foundation

/// Decodes a NeuralNetwork `WeightParams` (NeuralNetwork.proto) to float32 values:
/// `floatValue` (1), `float16Value` (2), `rawValue` (30) quantized with `QuantizationParams` (40:
/// `numberOfBits` 1, `linearQuantization` 101 {scale 1, bias 2}, `lookupTableQuantization` 102
/// {floatValue 1}) in 1…8 bits packed most significant bit first, and `int8RawValue` (31, linear with
/// one scale). Every size is checked against the count the layer declares before anything is allocated.
enum NeuralNetworkWeights {
    /// How a tensor's values are stored, for `models info`.
    enum Format: Hashable, Comparable, CustomStringConvertible {
        case float32, float16
        case linear(bits: Int)
        case lookupTable(bits: Int)
        case int8Dynamic

        var description: String {
            switch self {
            case .float32: "float32"
            case .float16: "float16"
            case .linear(let bits): "\(bits)-bit linear"
            case .lookupTable(let bits): "\(bits)-bit LUT"
            case .int8Dynamic: "int8 (linear)"
            }
        }
    }

    /// How per-channel linear scales apply: value `i` belongs to channel `(i / inner) % channels`.
    struct ChannelAxis {
        var channels: Int
        var inner: Int
        static let none = ChannelAxis(channels: 1, inner: 1)
    }

    /// The storage format of `m`, or nil when it holds no values.
    static func format(_ m: ProtoMessage) throws -> Format? {
        if m.has(1) { return .float32 }
        if m.has(2) { return .float16 }
        let bits = (try m.message(40, "quantization")?.uint64(1)).map { Int(min($0, 64)) } ?? 0
        if m.has(31) { return .int8Dynamic }
        if m.has(30) {
            let lut = try m.message(40, "quantization").map { $0.oneof([101, 102]) == 102 } ?? false
            return lut ? .lookupTable(bits: bits) : .linear(bits: bits)
        }
        return nil
    }

    /// The `count` float32 values of `m` (`what` names them in errors). `channels` maps values to the
    /// channels of a per-channel linear quantization.
    static func floats(_ m: ProtoMessage?, count: Int, what: String, channels: ChannelAxis = .none) throws -> [Float] {
        guard count > 0 else { return [] }
        guard let m else { throw ConversionError(.invalidValue, "\(what): no weights (expected \(count) values)") }
        let context = m.context
        // Widened to float32 whatever the storage (1-bit palettes: 32 times the file's bytes), before it is allocated.
        try ConversionBudget.charge(count * 4, "\(context): \(count) weights as float32")
        if m.has(1) {
            let n = m.repeatedFloatCount(1)
            guard n == count else {
                throw ConversionError(.invalidValue, "\(context): \(n) float values where \(count) are expected")
            }
            return try m.repeatedFloats(1)
        }
        if let half = try m.bytes(2) {
            guard half.count == count * 2 else {
                throw ConversionError(
                    .invalidValue,
                    "\(context): \(half.count) bytes of float16 where \(count) values (\(count * 2) bytes) are expected"
                )
            }
            var result = [Float](repeating: 0, count: count)
            var i = half.startIndex
            for k in 0..<count {
                result[k] = Float(Float16(bitPattern: UInt16(half[i]) | UInt16(half[i + 1]) << 8))
                i += 2
            }
            return result
        }
        let q = try m.message(40, "quantization")
        if let int8 = try m.bytes(31) {
            guard int8.count == count else {
                throw ConversionError(
                    .invalidValue, "\(context): \(int8.count) int8 values where \(count) are expected")
            }
            guard let linear = try q?.message(101, "linearQuantization") else {
                throw ConversionError(.invalidValue, "\(context): int8RawValue without linear quantization parameters")
            }
            let scale = try linear.repeatedFloats(1)
            let bias = try linear.repeatedFloats(2)
            return try dequantizeLinear(count: count, scale: scale, bias: bias, channels: channels, context: context) {
                k in
                Float(Int8(bitPattern: int8[int8.startIndex + k]))
            }
        }
        if let raw = try m.bytes(30) {
            guard let q else {
                throw ConversionError(.invalidValue, "\(context): rawValue without quantization parameters")
            }
            let bits = try q.count(1, limit: 16, what: "numberOfBits")
            guard (1...8).contains(bits) else {
                throw ConversionError(
                    .unsupported, "\(context): \(bits)-bit quantized weights (1 to 8 bits are defined)")
            }
            let needed = (count * bits + 7) / 8
            guard raw.count == needed else {
                throw ConversionError(
                    .invalidValue,
                    "\(context): \(raw.count) bytes of \(bits)-bit values where \(count) values (\(needed) bytes) are expected"
                )
            }
            // Index k's bits start at bit k × bits, most significant bit first within each byte.
            let base = raw.startIndex
            func index(_ k: Int) -> Int {
                if bits == 8 { return Int(raw[base + k]) }
                var value = 0
                var bit = k * bits
                for _ in 0..<bits {
                    let byte = raw[base + bit >> 3]
                    value = value << 1 | Int(byte >> (7 - UInt8(bit & 7)) & 1)
                    bit += 1
                }
                return value
            }
            switch q.oneof([101, 102]) {
            case 101?:
                let linear = try q.message(101, "linearQuantization")!
                return try dequantizeLinear(
                    count: count, scale: try linear.repeatedFloats(1), bias: try linear.repeatedFloats(2),
                    channels: channels, context: context
                ) { Float(index($0)) }
            case 102?:
                let table = try q.message(102, "lookupTableQuantization")!.repeatedFloats(1)
                guard !table.isEmpty, table.count <= 1 << bits else {
                    throw ConversionError(
                        .invalidValue, "\(context): a \(bits)-bit lookup table of \(table.count) entries")
                }
                var result = [Float](repeating: 0, count: count)
                for k in 0..<count {
                    let i = index(k)
                    guard i < table.count else {
                        throw ConversionError(
                            .invalidValue, "\(context): index \(i) past the lookup table's \(table.count) entries")
                    }
                    result[k] = table[i]
                }
                return result
            default:
                throw ConversionError(
                    .invalidValue, "\(context): quantized weights without linear or lookup-table parameters")
            }
        }
        throw ConversionError(.invalidValue, "\(context): no weight values (expected \(count))")
    }

    /// `W = q × scale + bias` with one scale/bias for all values or one per channel.
    private static func dequantizeLinear(
        count: Int, scale: [Float], bias: [Float], channels: ChannelAxis, context: String,
        _ value: (Int) -> Float
    ) throws -> [Float] {
        guard scale.count == 1 || scale.count == channels.channels else {
            throw ConversionError(
                .invalidValue, "\(context): \(scale.count) linear scales for \(channels.channels) channels")
        }
        guard bias.isEmpty || bias.count == scale.count else {
            throw ConversionError(.invalidValue, "\(context): \(bias.count) linear biases for \(scale.count) scales")
        }
        guard channels.channels > 0, channels.inner > 0 else {
            throw ConversionError(.invalidValue, "\(context): no channels")
        }
        var result = [Float](repeating: 0, count: count)
        for k in 0..<count {
            let c = scale.count == 1 ? 0 : (k / channels.inner) % channels.channels
            result[k] = value(k) * scale[c] + (bias.isEmpty ? 0 : bias[c])
        }
        return result
    }
}
