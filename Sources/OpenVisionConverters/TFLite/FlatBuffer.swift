import Foundation

/// A bounds-checked reader of FlatBuffers (the binary format of `.tflite` files and of their
/// `TFLITE_METADATA`), written by hand after flatbuffers' `docs/source/Internals.md`.
///
/// Every read checks its offset against the buffer and throws `ConversionError(.syntax)` when it
/// points outside: a corrupt or truncated file is an error, never a trap. Nothing is allocated in
/// proportion to a declared size before that size is checked against the bytes present.
struct FlatBuffer {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A table: its position and its vtable.
    struct Table {
        let position: Int
        let vtable: Int
        let vtableLength: Int
    }

    static func corrupt(_ what: String) -> ConversionError {
        ConversionError(.syntax, "is corrupt or truncated (\(what))")
    }

    // MARK: Scalars

    func check(_ offset: Int, _ size: Int, _ what: String = "offset out of range") throws {
        guard offset >= 0, size >= 0, offset <= bytes.count, size <= bytes.count - offset else {
            throw Self.corrupt(what)
        }
    }

    func uint8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
    }

    func uint16(_ offset: Int) throws -> UInt16 {
        try check(offset, 2)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint32(_ offset: Int) throws -> UInt32 {
        try check(offset, 4)
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    func int32(_ offset: Int) throws -> Int32 { Int32(bitPattern: try uint32(offset)) }

    func uint64(_ offset: Int) throws -> UInt64 {
        UInt64(try uint32(offset)) | UInt64(try uint32(offset + 4)) << 32
    }

    func float32(_ offset: Int) throws -> Float { Float(bitPattern: try uint32(offset)) }

    // MARK: Tables

    /// The root table (the offset in the first four bytes).
    func root() throws -> Table {
        try table(at: indirect(0))
    }

    /// The target of the `uoffset_t` stored at `offset`.
    func indirect(_ offset: Int) throws -> Int {
        let target = offset + Int(try uint32(offset))
        try check(target, 0)
        return target
    }

    func table(at position: Int) throws -> Table {
        let soffset = Int(try int32(position))
        let vtable = position - soffset
        try check(vtable, 4, "vtable out of range")
        let length = Int(try uint16(vtable))
        guard length >= 4, length % 2 == 0 else { throw Self.corrupt("malformed vtable") }
        try check(vtable, length, "vtable out of range")
        return Table(position: position, vtable: vtable, vtableLength: length)
    }

    /// The absolute offset of field `index` of `table`, nil when absent.
    func field(_ table: Table, _ index: Int) throws -> Int? {
        let entry = 4 + 2 * index
        guard entry + 2 <= table.vtableLength else { return nil }
        let offset = Int(try uint16(table.vtable + entry))
        guard offset != 0 else { return nil }
        try check(table.position + offset, 1)
        return table.position + offset
    }

    func int32(_ table: Table, _ index: Int, default value: Int32 = 0) throws -> Int32 {
        guard let p = try field(table, index) else { return value }
        return try int32(p)
    }

    func uint32(_ table: Table, _ index: Int, default value: UInt32 = 0) throws -> UInt32 {
        guard let p = try field(table, index) else { return value }
        return try uint32(p)
    }

    func uint64(_ table: Table, _ index: Int, default value: UInt64 = 0) throws -> UInt64 {
        guard let p = try field(table, index) else { return value }
        return try uint64(p)
    }

    func int8(_ table: Table, _ index: Int, default value: Int8 = 0) throws -> Int8 {
        guard let p = try field(table, index) else { return value }
        return Int8(bitPattern: try uint8(p))
    }

    func uint8(_ table: Table, _ index: Int, default value: UInt8 = 0) throws -> UInt8 {
        guard let p = try field(table, index) else { return value }
        return try uint8(p)
    }

    func bool(_ table: Table, _ index: Int) throws -> Bool {
        try uint8(table, index) != 0
    }

    func float32(_ table: Table, _ index: Int, default value: Float = 0) throws -> Float {
        guard let p = try field(table, index) else { return value }
        return try float32(p)
    }

    /// The sub-table in field `index`, nil when absent.
    func table(_ table: Table, _ index: Int) throws -> Table? {
        guard let p = try field(table, index) else { return nil }
        return try self.table(at: indirect(p))
    }

    // MARK: Vectors

    /// Where the elements of the vector in field `index` start, and their count; checked to fit.
    func vector(_ table: Table, _ index: Int, elementSize: Int) throws -> (start: Int, count: Int)? {
        guard let p = try field(table, index) else { return nil }
        let header = try indirect(p)
        let count = Int(try uint32(header))
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw Self.corrupt("vector too long") }
        try check(header + 4, size, "vector out of range")
        return (header + 4, count)
    }

    func tables(_ table: Table, _ index: Int) throws -> [Table] {
        guard let (start, count) = try vector(table, index, elementSize: 4) else { return [] }
        var result: [Table] = []
        result.reserveCapacity(count)
        for i in 0..<count { result.append(try self.table(at: indirect(start + 4 * i))) }
        return result
    }

    func int32s(_ table: Table, _ index: Int) throws -> [Int32]? {
        guard let (start, count) = try vector(table, index, elementSize: 4) else { return nil }
        return try (0..<count).map { try int32(start + 4 * $0) }
    }

    func float32s(_ table: Table, _ index: Int) throws -> [Float]? {
        guard let (start, count) = try vector(table, index, elementSize: 4) else { return nil }
        return try (0..<count).map { try float32(start + 4 * $0) }
    }

    func int64s(_ table: Table, _ index: Int) throws -> [Int64]? {
        guard let (start, count) = try vector(table, index, elementSize: 8) else { return nil }
        return try (0..<count).map { Int64(bitPattern: try uint64(start + 8 * $0)) }
    }

    func uint16s(_ table: Table, _ index: Int) throws -> [UInt16]? {
        guard let (start, count) = try vector(table, index, elementSize: 2) else { return nil }
        return try (0..<count).map { try uint16(start + 2 * $0) }
    }

    /// The byte range of a `[ubyte]` vector.
    func byteRange(_ table: Table, _ index: Int) throws -> Range<Int>? {
        guard let (start, count) = try vector(table, index, elementSize: 1) else { return nil }
        return start..<(start + count)
    }

    func string(_ table: Table, _ index: Int) throws -> String? {
        guard let range = try byteRange(table, index) else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }
}
