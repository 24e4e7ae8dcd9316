import Foundation

/// Rewrites one field deep inside a protobuf message and copies every other byte as it is: how an updated Core ML
/// model is written (the new kNN samples, the trained weights) without a protobuf library and without losing the
/// fields this reader does not know. Malformed bytes are `.syntax` errors.
enum ProtoSplice {
    /// One field on the wire: its number, and where it and its value lie in the message's bytes.
    struct Field {
        var number: Int
        /// The whole field (key, length and value).
        var range: Range<Int>
        /// The value: a length-delimited field's body (empty range for other wire types' fields).
        var body: Range<Int>
        var isLengthDelimited: Bool
    }

    /// One step of a path into nested messages: field `number`, its `occurrence`-th value (nil: the last one, as a
    /// singular field is read).
    struct Step {
        var number: Int
        var occurrence: Int?
    }

    /// The fields of the message in `bytes[range]`, in wire order.
    static func fields(_ bytes: [UInt8], _ range: Range<Int>, context: String) throws -> [Field] {
        var result: [Field] = []
        var i = range.lowerBound
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while i < range.upperBound, shift < 64 {
                let byte = bytes[i]
                i += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            throw ConversionError(.syntax, "\(context): malformed protobuf")
        }
        while i < range.upperBound {
            let start = i
            let key = try varint()
            let number = Int(truncatingIfNeeded: key >> 3)
            var body = i..<i
            switch key & 7 {
            case 0: _ = try varint()
            case 1, 5:
                let size = key & 7 == 1 ? 8 : 4
                guard range.upperBound - i >= size else { throw ConversionError(.syntax, "\(context): truncated") }
                i += size
            case 2:
                let length = try varint()
                guard length <= UInt64(range.upperBound - i) else {
                    throw ConversionError(.syntax, "\(context): a length past the end")
                }
                body = i..<(i + Int(length))
                i += Int(length)
            default: throw ConversionError(.syntax, "\(context): wire type \(key & 7)")
            }
            result.append(Field(number: number, range: start..<i, body: body, isLengthDelimited: key & 7 == 2))
        }
        return result
    }

    /// `bytes` (a whole message) with the message at `path` replaced by `transform(its body)`. A missing last step is
    /// added at the end of its parent; a missing intermediate step is an `.invalidValue` error.
    static func editing(
        _ bytes: [UInt8], at path: [Step], context: String, _ transform: ([UInt8]) throws -> [UInt8]
    ) throws -> [UInt8] {
        try edit(bytes, 0..<bytes.count, path[...], context: context, transform)
    }

    private static func edit(
        _ bytes: [UInt8], _ range: Range<Int>, _ path: ArraySlice<Step>, context: String,
        _ transform: ([UInt8]) throws -> [UInt8]
    ) throws -> [UInt8] {
        guard let step = path.first else { return try transform(Array(bytes[range])) }
        let all = try fields(bytes, range, context: context)
        let matching = all.indices.filter { all[$0].number == step.number && all[$0].isLengthDelimited }
        let chosen: Int?
        if let n = step.occurrence {
            chosen = n < matching.count ? matching[n] : nil
        } else {
            chosen = matching.last
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count + 64)
        guard let chosen else {
            guard path.count == 1 else {
                throw ConversionError(.invalidValue, "\(context): no field \(step.number) to update")
            }
            out += bytes[range]
            out += lengthDelimited(step.number, try transform([]))
            return out
        }
        for (k, field) in all.enumerated() {
            if k == chosen {
                let inner = try edit(bytes, field.body, path.dropFirst(), context: context, transform)
                out += lengthDelimited(field.number, inner)
            } else {
                out += bytes[field.range]
            }
        }
        return out
    }

    /// The message body `bytes[range]` without the fields numbered in `numbers`.
    static func removing(_ numbers: Set<Int>, from bytes: [UInt8], _ range: Range<Int>, context: String) throws
        -> [UInt8]
    {
        var out: [UInt8] = []
        for field in try fields(bytes, range, context: context) where !numbers.contains(field.number) {
            out += bytes[field.range]
        }
        return out
    }

    /// Field `number` holding `value` as a length-delimited field (a message, string or packed values).
    static func lengthDelimited(_ number: Int, _ value: [UInt8]) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.bytes(number, value)
        return e.bytes
    }

    /// A packed `repeated float` field.
    static func packedFloats(_ number: Int, _ values: [Float]) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.rawFloats(number, values)
        return e.bytes
    }

    /// A varint field (`int64`, `int32`, `bool`, enum).
    static func varint(_ number: Int, _ value: Int64) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.int64(number, value)
        return e.bytes
    }
}
