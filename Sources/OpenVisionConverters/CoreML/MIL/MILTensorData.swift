/// The elements of a constant tensor, decoded: floating types as Float (fp16, bf16 and fp8 exactly;
/// fp64 rounded), every integer type as Int64, bools and strings as themselves.
package enum MILTensorData: Sendable, Equatable {
    case floats([Float])
    case ints([Int64])
    case bools([Bool])
    case strings([String])

    package var count: Int {
        switch self {
        case .floats(let v): v.count
        case .ints(let v): v.count
        case .bools(let v): v.count
        case .strings(let v): v.count
        }
    }

    /// The values as Float (integers and bools converted; strings give NaNs, one per string).
    package var floats: [Float] {
        switch self {
        case .floats(let v): v
        case .ints(let v): v.map { Float($0) }
        case .bools(let v): v.map { $0 ? 1 : 0 }
        case .strings(let v): [Float](repeating: .nan, count: v.count)
        }
    }

    /// The values as Int64 (floats truncated toward zero and clamped, NaN 0; strings give zeros).
    package var ints: [Int64] {
        switch self {
        case .floats(let v): v.map { $0.isNaN ? 0 : Int64(max(-9.2e18, min(9.2e18, $0.rounded(.towardZero)))) }
        case .ints(let v): v
        case .bools(let v): v.map { $0 ? 1 : 0 }
        case .strings(let v): [Int64](repeating: 0, count: v.count)
        }
    }

    /// Decodes `count` little-endian elements of `dataType` from `bytes` (the caller checked that
    /// `bytes` holds them). Sub-byte values are a continuous LSB-first bit stream, as MILBlob packs them.
    package static func decode(_ bytes: ArraySlice<UInt8>, as dataType: MILDataType, count: Int) -> MILTensorData {
        let base = bytes.startIndex
        func le(_ i: Int, _ width: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<width { v |= UInt64(bytes[base + i * width + k]) << (8 * UInt64(k)) }
            return v
        }
        switch dataType {
        case .fp16: return .floats((0..<count).map { Half.float(UInt16(le($0, 2))) })
        case .bf16: return .floats((0..<count).map { Float(bitPattern: UInt32(le($0, 2)) << 16) })
        case .fp32: return .floats((0..<count).map { Float(bitPattern: UInt32(le($0, 4))) })
        case .fp64: return .floats((0..<count).map { Float(Double(bitPattern: le($0, 8))) })
        case .fp8e4m3fn: return .floats((0..<count).map { Half.float8E4M3FN(bytes[base + $0]) })
        case .fp8e5m2: return .floats((0..<count).map { Half.float(UInt16(bytes[base + $0]) << 8) })
        case .bool: return .bools((0..<count).map { bytes[base + $0] != 0 })
        case .int8: return .ints((0..<count).map { Int64(Int8(bitPattern: bytes[base + $0])) })
        case .uint8: return .ints((0..<count).map { Int64(bytes[base + $0]) })
        case .int16: return .ints((0..<count).map { Int64(Int16(bitPattern: UInt16(le($0, 2)))) })
        case .uint16: return .ints((0..<count).map { Int64(le($0, 2)) })
        case .int32: return .ints((0..<count).map { Int64(Int32(bitPattern: UInt32(le($0, 4)))) })
        case .uint32: return .ints((0..<count).map { Int64(le($0, 4)) })
        case .int64: return .ints((0..<count).map { Int64(bitPattern: le($0, 8)) })
        case .uint64: return .ints((0..<count).map { Int64(bitPattern: le($0, 8)) })
        case .int4, .uint1, .uint2, .uint3, .uint4, .uint6:
            let bits = dataType.bitWidth!
            let mask = UInt16(1 << bits - 1)
            var values = [Int64](repeating: 0, count: count)
            for i in 0..<count {
                let start = i * bits
                let byte = base + start / 8
                let shift = start % 8
                var word = UInt16(bytes[byte])
                if shift + bits > 8 { word |= UInt16(bytes[byte + 1]) << 8 }
                let raw = (word >> UInt16(shift)) & mask
                values[i] = dataType == .int4 && raw >= 8 ? Int64(raw) - 16 : Int64(raw)
            }
            return .ints(values)
        case .string: return .strings([])
        }
    }

    /// The values of an immediate tensor declared as `count` elements of `dataType`. Throws
    /// `.invalidValue` when the storage holds a different number of elements or cannot hold that type.
    package static func immediate(_ storage: MILTensorStorage, as dataType: MILDataType, count: Int) throws
        -> MILTensorData
    {
        func mismatch(_ n: Int) -> ConversionError {
            ConversionError(
                .invalidValue, "an immediate \(dataType.rawValue) tensor of \(count) elements holds \(n) values")
        }
        let data: MILTensorData
        switch storage {
        case .bytes(let b):
            guard let bits = dataType.bitWidth, count >= 0, count <= MILLimits.maximumElements,
                b.count * 8 >= count * bits
            else {
                throw ConversionError(
                    .invalidValue,
                    "an immediate \(dataType.rawValue) tensor of \(count) elements is stored in \(b.count) bytes")
            }
            return decode(b[...], as: dataType, count: count)
        case .floats(let v): data = .floats(v)
        case .doubles(let v): data = .floats(v.map { Float($0) })
        case .ints(let v): data = .ints(v.map { Int64($0) })
        case .longInts(let v): data = .ints(v)
        case .bools(let v): data = .bools(v)
        case .strings(let v): data = .strings(v)
        }
        guard data.count == count else { throw mismatch(data.count) }
        return data.converted(to: dataType)
    }

    /// The same values in the representation of `dataType` (floats rounded to its precision).
    package func converted(to dataType: MILDataType) -> MILTensorData {
        switch dataType {
        case .fp16: return .floats(floats.map(Half.round))
        case .bf16: return .floats(floats.map(Half.roundBFloat16))
        case .fp32, .fp64, .fp8e4m3fn, .fp8e5m2: return .floats(floats)
        case .bool:
            if case .bools = self { return self }
            return .bools(floats.map { $0 != 0 })
        case .string:
            return self
        default:
            if case .ints = self { return self }
            return .ints(ints)
        }
    }
}

/// IEEE 754 half-precision conversions written out (Swift's Float16 is missing on Intel Macs).
package enum Half {
    /// The Float with the value of the binary16 `bits` (exact).
    package static func float(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = Int(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        if exponent == 0x1F { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
        if exponent == 0 {
            if mantissa == 0 { return Float(bitPattern: sign) }
            let value = Float(mantissa) * 0x1p-24
            return sign != 0 ? -value : value
        }
        return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | mantissa << 13)
    }

    /// The binary16 nearest to `value` (ties to even; overflow to infinity), as bits.
    package static func bits(_ value: Float) -> UInt16 {
        let b = value.bitPattern
        let sign = UInt16((b >> 16) & 0x8000)
        let exponent = Int((b >> 23) & 0xFF)
        var mantissa = b & 0x7F_FFFF
        if exponent == 0xFF { return sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0) }
        let e = exponent - 127 + 15
        if e >= 0x1F { return sign | 0x7C00 }
        if e <= 0 {
            if e < -10 { return sign }
            mantissa |= 0x80_0000
            let shift = UInt32(14 - e)
            var half = mantissa >> shift
            let rest = mantissa & (1 << shift - 1)
            let halfway = UInt32(1) << (shift - 1)
            if rest > halfway || (rest == halfway && half & 1 == 1) { half += 1 }
            return sign | UInt16(half)
        }
        var half = UInt32(e) << 10 | mantissa >> 13
        let rest = mantissa & 0x1FFF
        if rest > 0x1000 || (rest == 0x1000 && half & 1 == 1) { half += 1 }
        return sign | UInt16(truncatingIfNeeded: half)
    }

    /// `value` rounded to the nearest binary16, as a Float.
    package static func round(_ value: Float) -> Float { float(bits(value)) }

    /// `value` rounded to the nearest bfloat16 (ties to even), as a Float.
    package static func roundBFloat16(_ value: Float) -> Float {
        if value.isNaN { return value }
        let b = value.bitPattern
        let rounded = b &+ 0x7FFF &+ ((b >> 16) & 1)
        return Float(bitPattern: rounded & 0xFFFF_0000)
    }

    /// An fp8 E4M3FN value (bias 7, no infinities, 0x7F/0xFF NaN).
    package static func float8E4M3FN(_ byte: UInt8) -> Float {
        let negative = byte & 0x80 != 0
        let exponent = Int(byte >> 3) & 0xF
        let mantissa = Float(byte & 0x7)
        let magnitude: Float
        if exponent == 0xF && byte & 0x7 == 0x7 { return .nan }
        if exponent == 0 {
            magnitude = mantissa / 8 * 0x1p-6
        } else {
            magnitude = (1 + mantissa / 8) * Float(sign: .plus, exponent: exponent - 7, significand: 1)
        }
        return negative ? -magnitude : magnitude
    }
}
