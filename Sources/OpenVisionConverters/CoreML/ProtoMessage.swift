import Foundation

/// One protobuf message's fields, indexed by field number, over bytes the caller keeps alive (the
/// Core ML reader works inside one `withUnsafeBytes` of the file). Reads proto3 semantics: an absent
/// scalar is 0 / false / "", the last occurrence of a scalar wins, repeated scalars may be packed or
/// not. A value of the wrong wire type, malformed varints or lengths past the end are `.syntax`
/// errors naming `context` (the message's path in the file, e.g. "layer 'conv1' convolution").
package struct ProtoMessage {
    package typealias Bytes = Slice<UnsafeRawBufferPointer>

    /// The message's path in the file, for error messages.
    package let context: String
    private var fields: [Int: [ProtoReader.Value]] = [:]
    /// Each field's last position on the wire (for `oneof`).
    private var lastPosition: [Int: Int] = [:]

    package init(_ body: Bytes, context: String) throws {
        self.context = context
        var reader = ProtoReader(body)
        var position = 0
        while let (field, value) = reader.next() {
            fields[field, default: []].append(value)
            lastPosition[field] = position
            position += 1
        }
        if reader.failed { throw ConversionError(.syntax, "\(context): malformed protobuf") }
    }

    /// Whether field `f` occurs.
    package func has(_ f: Int) -> Bool { fields[f] != nil }

    /// The field numbers present, sorted.
    package var fieldNumbers: [Int] { fields.keys.sorted() }

    private func wrongType(_ f: Int, _ expected: String) -> ConversionError {
        ConversionError(.syntax, "\(context): field \(f) is not \(expected)")
    }

    // MARK: Scalars (the last occurrence wins; absent is the proto3 default)

    package func varint(_ f: Int) throws -> UInt64 {
        guard let last = fields[f]?.last else { return 0 }
        guard case .varint(let v) = last else { throw wrongType(f, "a varint") }
        return v
    }

    package func uint64(_ f: Int) throws -> UInt64 { try varint(f) }
    package func int64(_ f: Int) throws -> Int64 { Int64(bitPattern: try varint(f)) }
    /// An `int32`/enum field (negative values are sign-extended to ten bytes on the wire).
    package func int32(_ f: Int) throws -> Int32 { Int32(truncatingIfNeeded: Int64(bitPattern: try varint(f))) }
    package func bool(_ f: Int) throws -> Bool { try varint(f) != 0 }

    /// A `uint64`/`int64` field as an `Int` within `0...limit`; larger (or negative) values are `.invalidValue`.
    package func count(_ f: Int, limit: Int, what: String) throws -> Int {
        let v = Int64(bitPattern: try varint(f))
        guard v >= 0, v <= Int64(limit) else {
            throw ConversionError(.invalidValue, "\(context): \(what) \(v) is out of range 0...\(limit)")
        }
        return Int(v)
    }

    package func float(_ f: Int) throws -> Float {
        guard let last = fields[f]?.last else { return 0 }
        guard case .fixed32(let v) = last else { throw wrongType(f, "a float") }
        return Float(bitPattern: v)
    }

    package func double(_ f: Int) throws -> Double {
        guard let last = fields[f]?.last else { return 0 }
        guard case .fixed64(let v) = last else { throw wrongType(f, "a double") }
        return Double(bitPattern: v)
    }

    package func bytes(_ f: Int) throws -> Bytes? {
        guard let last = fields[f]?.last else { return nil }
        guard case .bytes(let b) = last else { throw wrongType(f, "length-delimited") }
        return b
    }

    package func string(_ f: Int) throws -> String {
        guard let b = try bytes(f) else { return "" }
        return String(decoding: b, as: UTF8.self)
    }

    // MARK: Messages

    package func message(_ f: Int, _ name: String) throws -> ProtoMessage? {
        guard let b = try bytes(f) else { return nil }
        return try ProtoMessage(b, context: "\(context) \(name)")
    }

    package func messages(_ f: Int, _ name: String) throws -> [ProtoMessage] {
        guard let values = fields[f] else { return [] }
        var result: [ProtoMessage] = []
        result.reserveCapacity(values.count)
        for (i, value) in values.enumerated() {
            guard case .bytes(let b) = value else { throw wrongType(f, "a message") }
            result.append(try ProtoMessage(b, context: "\(context) \(name)[\(i)]"))
        }
        return result
    }

    /// The raw bodies of a repeated message field, without parsing them.
    package func messageBodies(_ f: Int) throws -> [Bytes] {
        guard let values = fields[f] else { return [] }
        return try values.map { value in
            guard case .bytes(let b) = value else { throw wrongType(f, "a message") }
            return b
        }
    }

    /// Which of the `oneof` fields `candidates` is set (the last one on the wire wins), or nil.
    package func oneof(_ candidates: Set<Int>) -> Int? {
        var best: (field: Int, position: Int)?
        for f in candidates {
            guard let position = lastPosition[f] else { continue }
            if best == nil || position > best!.position { best = (f, position) }
        }
        return best?.field
    }

    // MARK: Repeated scalars (packed or not)

    package func repeatedVarints(_ f: Int) throws -> [UInt64] {
        guard let values = fields[f] else { return [] }
        var result: [UInt64] = []
        for value in values {
            switch value {
            case .varint(let v): result.append(v)
            case .bytes(let b):
                guard let packed = ProtoReader.packedVarints(b) else {
                    throw ConversionError(.syntax, "\(context): field \(f): malformed packed varints")
                }
                result += packed
            default: throw wrongType(f, "varints")
            }
        }
        return result
    }

    package func repeatedInt64(_ f: Int) throws -> [Int64] { try repeatedVarints(f).map { Int64(bitPattern: $0) } }
    package func repeatedBool(_ f: Int) throws -> [Bool] { try repeatedVarints(f).map { $0 != 0 } }

    /// A `repeated uint64` whose values must each be within `0...limit` (`.invalidValue` otherwise).
    package func repeatedCounts(_ f: Int, limit: Int, what: String) throws -> [Int] {
        try repeatedInt64(f).map { v in
            guard v >= 0, v <= Int64(limit) else {
                throw ConversionError(.invalidValue, "\(context): \(what) \(v) is out of range 0...\(limit)")
            }
            return Int(v)
        }
    }

    /// A `repeated int64` whose values must each be within `-limit...limit`.
    package func repeatedInts(_ f: Int, limit: Int, what: String) throws -> [Int] {
        try repeatedInt64(f).map { v in
            guard v >= -Int64(limit), v <= Int64(limit) else {
                throw ConversionError(.invalidValue, "\(context): \(what) \(v) is out of range ±\(limit)")
            }
            return Int(v)
        }
    }

    package func repeatedFloats(_ f: Int) throws -> [Float] {
        guard let values = fields[f] else { return [] }
        var result: [Float] = []
        for value in values {
            switch value {
            case .fixed32(let v): result.append(Float(bitPattern: v))
            case .bytes(let b):
                guard let packed = ProtoReader.packedFloats(b) else {
                    throw ConversionError(.syntax, "\(context): field \(f): packed floats of \(b.count) bytes")
                }
                result += packed
            default: throw wrongType(f, "floats")
            }
        }
        return result
    }

    /// How many values a `repeated float` field holds, without decoding them.
    package func repeatedFloatCount(_ f: Int) -> Int {
        guard let values = fields[f] else { return 0 }
        return values.reduce(0) { n, value in
            switch value {
            case .fixed32: n + 1
            case .bytes(let b): n + b.count / 4
            default: n
            }
        }
    }

    package func repeatedDoubles(_ f: Int) throws -> [Double] {
        guard let values = fields[f] else { return [] }
        var result: [Double] = []
        for value in values {
            switch value {
            case .fixed64(let v): result.append(Double(bitPattern: v))
            case .bytes(let b):
                guard let packed = ProtoReader.packedDoubles(b) else {
                    throw ConversionError(.syntax, "\(context): field \(f): packed doubles of \(b.count) bytes")
                }
                result += packed
            default: throw wrongType(f, "doubles")
            }
        }
        return result
    }

    package func repeatedStrings(_ f: Int) throws -> [String] {
        guard let values = fields[f] else { return [] }
        return try values.map { value in
            guard case .bytes(let b) = value else { throw wrongType(f, "strings") }
            return String(decoding: b, as: UTF8.self)
        }
    }
}
