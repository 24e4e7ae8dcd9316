/// MIL's scalar element types (`MIL.proto` `DataType`).
package enum MILDataType: String, Sendable, CaseIterable {
    case bool, string
    case fp16, fp32, fp64, bf16, fp8e4m3fn, fp8e5m2
    case int4, int8, int16, int32, int64
    case uint1, uint2, uint3, uint4, uint6, uint8, uint16, uint32, uint64

    /// From `MIL.proto`'s enum value (nil for UNUSED_TYPE and unknown codes).
    init?(protoCode: UInt64) {
        switch protoCode {
        case 1: self = .bool
        case 2: self = .string
        case 10: self = .fp16
        case 11: self = .fp32
        case 12: self = .fp64
        case 13: self = .bf16
        case 21: self = .int8
        case 22: self = .int16
        case 23: self = .int32
        case 24: self = .int64
        case 25: self = .int4
        case 31: self = .uint8
        case 32: self = .uint16
        case 33: self = .uint32
        case 34: self = .uint64
        case 35: self = .uint4
        case 36: self = .uint2
        case 37: self = .uint1
        case 38: self = .uint6
        case 39: self = .uint3
        case 40: self = .fp8e4m3fn
        case 41: self = .fp8e5m2
        default: return nil
        }
    }

    /// From the names MIL text uses ("fp32", "int32", "bool", "string", …).
    init?(textName: String) {
        switch textName {
        case "fp16", "float16": self = .fp16
        case "fp32", "float32": self = .fp32
        case "fp64", "float64": self = .fp64
        case "bf16", "bfloat16": self = .bf16
        case "str": self = .string
        default:
            guard let value = MILDataType(rawValue: textName) else { return nil }
            self = value
        }
    }

    package var isFloat: Bool { [.fp16, .fp32, .fp64, .bf16, .fp8e4m3fn, .fp8e5m2].contains(self) }
    package var isInteger: Bool { !isFloat && self != .bool && self != .string }
    package var isSigned: Bool { [.int4, .int8, .int16, .int32, .int64].contains(self) }

    /// Bits per element as stored (nil for strings).
    package var bitWidth: Int? {
        switch self {
        case .bool, .int8, .uint8, .fp8e4m3fn, .fp8e5m2: 8
        case .fp16, .bf16, .int16, .uint16: 16
        case .fp32, .int32, .uint32: 32
        case .fp64, .int64, .uint64: 64
        case .int4, .uint4: 4
        case .uint1: 1
        case .uint2: 2
        case .uint3: 3
        case .uint6: 6
        case .string: nil
        }
    }
}

/// A MIL type.
package indirect enum MILType: Sendable {
    /// Element type and dimensions (nil: unknown rank; `[]`: a scalar; a nil dimension: unknown size).
    case tensor(MILDataType, [Int?]?)
    case list(MILType, length: Int?)
    case tuple([MILType])
    case dictionary(key: MILType, value: MILType)
    case state(MILType)

    /// The element type of a tensor type.
    package var dataType: MILDataType? {
        if case .tensor(let d, _) = self { return d }
        return nil
    }

    /// The dimensions of a tensor type (nil for unknown rank and non-tensors).
    package var shape: [Int?]? {
        if case .tensor(_, let s) = self { return s }
        return nil
    }
}
