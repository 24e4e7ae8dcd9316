/// Iterates the fields of a protobuf message in a buffer (the wire format only: varints, 32- and
/// 64-bit fixed values, length-delimited bytes). Malformed input sets `failed` and ends the
/// iteration instead of trapping; nothing is allocated in proportion to a declared length.
/// Shared by the ONNX and Core ML readers.
package struct ProtoReader {
    /// One field's value, as the wire type gives it.
    package enum Value {
        /// Wire type 0: int32/int64/uint*/bool/enum (zig-zag for sint*, see `zigZag`).
        case varint(UInt64)
        /// Wire type 2: bytes, strings, embedded messages and packed repeated scalars.
        case bytes(Slice<UnsafeRawBufferPointer>)
        /// Wire type 5: fixed32, sfixed32, float (`Float(bitPattern:)`).
        case fixed32(UInt32)
        /// Wire type 1: fixed64, sfixed64, double (`Double(bitPattern:)`).
        case fixed64(UInt64)
    }

    private var data: Slice<UnsafeRawBufferPointer>
    private var index: Int
    /// True once malformed input was met; `next()` then returns nil.
    package private(set) var failed = false

    package init(_ data: Slice<UnsafeRawBufferPointer>) {
        self.data = data
        self.index = data.startIndex
    }

    private mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < data.endIndex, shift < 64 {
            let byte = data[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        failed = true
        return nil
    }

    private mutating func littleEndian(_ size: Int) -> UInt64? {
        guard size <= data.endIndex - index else {
            failed = true
            return nil
        }
        var value: UInt64 = 0
        for k in 0..<size { value |= UInt64(data[index + k]) << (8 * UInt64(k)) }
        index += size
        return value
    }

    /// The next field's number and value; nil at the end or on malformed input (`failed`).
    package mutating func next() -> (Int, Value)? {
        guard !failed, index < data.endIndex, let key = varint() else { return nil }
        let field = Int(truncatingIfNeeded: key >> 3)
        switch key & 7 {
        case 0:
            guard let v = varint() else { return nil }
            return (field, .varint(v))
        case 1:
            guard let v = littleEndian(8) else { return nil }
            return (field, .fixed64(v))
        case 5:
            guard let v = littleEndian(4) else { return nil }
            return (field, .fixed32(UInt32(truncatingIfNeeded: v)))
        case 2:
            guard let length = varint(), length <= UInt64(data.endIndex - index) else {
                failed = true
                return nil
            }
            let start = index
            index += Int(length)
            return (field, .bytes(data[start..<index]))
        default:
            failed = true
            return nil
        }
    }

    /// A `sint32`/`sint64` varint decoded from zig-zag.
    package static func zigZag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    /// The varints of a packed repeated field (or nil when malformed).
    package static func packedVarints(_ body: Slice<UnsafeRawBufferPointer>) -> [UInt64]? {
        var values: [UInt64] = []
        var i = body.startIndex
        while i < body.endIndex {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            var done = false
            while i < body.endIndex, shift < 64 {
                let byte = body[i]
                i += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 {
                    done = true
                    break
                }
                shift += 7
            }
            guard done else { return nil }
            values.append(result)
        }
        return values
    }

    /// The little-endian floats of a packed `repeated float` (nil when the length is not a multiple of 4).
    package static func packedFloats(_ body: Slice<UnsafeRawBufferPointer>) -> [Float]? {
        guard body.count % 4 == 0 else { return nil }
        var values = [Float](repeating: 0, count: body.count / 4)
        var i = body.startIndex
        for k in values.indices {
            let bits =
                UInt32(body[i]) | UInt32(body[i + 1]) << 8 | UInt32(body[i + 2]) << 16 | UInt32(body[i + 3]) << 24
            values[k] = Float(bitPattern: bits)
            i += 4
        }
        return values
    }

    /// The little-endian doubles of a packed `repeated double` (nil when the length is not a multiple of 8).
    package static func packedDoubles(_ body: Slice<UnsafeRawBufferPointer>) -> [Double]? {
        guard body.count % 8 == 0 else { return nil }
        var values = [Double](repeating: 0, count: body.count / 8)
        var i = body.startIndex
        for k in values.indices {
            var bits: UInt64 = 0
            for b in 0..<8 { bits |= UInt64(body[i + b]) << (8 * UInt64(b)) }
            values[k] = Double(bitPattern: bits)
            i += 8
        }
        return values
    }
}
