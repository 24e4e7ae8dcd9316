import Foundation

extension MultiArray {
    /// Largest `.npy` header read (NumPy writes headers of a few hundred bytes).
    static let maximumNumPyHeader = 1 << 16

    /// Reads a NumPy `.npy` file's bytes (format versions 1–3, C order): little-endian or single-byte float16/32/64,
    /// int8/16/32/64, uint8/16/32 and bool arrays (float16 read as float32, 8/16-bit integers, uint32 and bool as
    /// int32/int64). Anything else — a big-endian or Fortran-order array, another type, a header or data that does
    /// not match the shape — is `invalidArgument` naming it; nothing is allocated beyond what the bytes hold.
    public init(npy data: Data) throws(VisionError) {
        func bad(_ what: String) -> VisionError { VisionError(.invalidArgument, "not a readable .npy array: \(what)") }
        let bytes = [UInt8](data)
        guard bytes.count >= 10, bytes[0] == 0x93, Array(bytes[1...5]) == Array("NUMPY".utf8) else {
            throw bad("no NumPy magic")
        }
        let major = bytes[6]
        let headerLength: Int
        let start: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            start = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw bad("truncated header") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            start = 12
        default: throw bad("format version \(major)")
        }
        guard headerLength <= Self.maximumNumPyHeader, start + headerLength <= bytes.count else {
            throw bad("header of \(headerLength) bytes")
        }
        let header = String(decoding: bytes[start..<(start + headerLength)], as: UTF8.self)
        guard let descr = Self.headerValue(header, "descr"), let order = Self.headerValue(header, "fortran_order"),
            let shapeText = Self.headerValue(header, "shape")
        else { throw bad("header \(header.prefix(120))") }
        guard order == "False" else { throw bad("a Fortran-order array (write it with np.ascontiguousarray)") }
        let dtype = descr.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        var shape: [Int] = []
        for part in shapeText.trimmingCharacters(in: CharacterSet(charactersIn: "() ")).split(separator: ",") {
            let t = part.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            guard let d = Int(t), d >= 0, d <= Int(Int32.max) else { throw bad("shape \(shapeText)") }
            shape.append(d)
        }
        guard shape.count <= 32 else { throw bad("rank \(shape.count)") }
        let body = bytes[(start + headerLength)...]
        var count = 1
        for d in shape {
            let (p, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, p <= body.count else { throw bad("shape \(shape) needs more data than the file holds") }
            count = p
        }
        let sizes: [String: Int] = [
            "<f2": 2, "<f4": 4, "<f8": 8, "|i1": 1, "<i2": 2, "<i4": 4, "<i8": 8, "|u1": 1, "<u2": 2,
            "<u4": 4, "|b1": 1,
        ]
        guard let size = sizes[dtype] else {
            throw bad("element type \(dtype) (little-endian numbers and bool are read)")
        }
        guard body.count == count * size else { throw bad("\(body.count) data bytes for shape \(shape) of \(dtype)") }
        func load<T: FixedWidthInteger>(_: T.Type, _ i: Int) -> T {
            var v: T = 0
            for b in 0..<size { v |= T(truncatingIfNeeded: body[body.startIndex + i * size + b]) << (8 * b) }
            return v
        }
        let elements: Elements
        switch dtype {
        case "<f2": elements = .float32((0..<count).map { Self.half(load(UInt16.self, $0)) })
        case "<f4": elements = .float32((0..<count).map { Float(bitPattern: load(UInt32.self, $0)) })
        case "<f8": elements = .float64((0..<count).map { Double(bitPattern: load(UInt64.self, $0)) })
        case "|i1": elements = .int32((0..<count).map { Int32(Int8(bitPattern: load(UInt8.self, $0))) })
        case "<i2": elements = .int32((0..<count).map { Int32(Int16(bitPattern: load(UInt16.self, $0))) })
        case "<i4": elements = .int32((0..<count).map { Int32(bitPattern: load(UInt32.self, $0)) })
        case "<i8": elements = .int64((0..<count).map { Int64(bitPattern: load(UInt64.self, $0)) })
        case "|u1", "|b1": elements = .int32((0..<count).map { Int32(load(UInt8.self, $0)) })
        case "<u2": elements = .int32((0..<count).map { Int32(load(UInt16.self, $0)) })
        default: elements = .int64((0..<count).map { Int64(load(UInt32.self, $0)) })
        }
        try self.init(shape: shape, elements: elements)
    }

    /// The array as a NumPy `.npy` file (format 1.0, C order, little-endian `<f4`, `<f8`, `<i4` or `<i8`). Strings
    /// are `invalidArgument`: `.npy` has no UTF-8 type.
    public func npyData() throws(VisionError) -> Data {
        let descr: String
        var body = Data()
        switch elements {
        case .float32(let v):
            descr = "<f4"
            body.reserveCapacity(v.count * 4)
            for x in v { Self.append(x.bitPattern, to: &body) }
        case .float64(let v):
            descr = "<f8"
            body.reserveCapacity(v.count * 8)
            for x in v { Self.append(x.bitPattern, to: &body) }
        case .int32(let v):
            descr = "<i4"
            body.reserveCapacity(v.count * 4)
            for x in v { Self.append(UInt32(bitPattern: x), to: &body) }
        case .int64(let v):
            descr = "<i8"
            body.reserveCapacity(v.count * 8)
            for x in v { Self.append(UInt64(bitPattern: x), to: &body) }
        case .string: throw VisionError(.invalidArgument, "an array of strings has no .npy form")
        }
        let dims = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(dims), }"
        // Magic (6) + version (2) + length (2) + header + newline: a multiple of 64 bytes.
        let total = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - total % 64) % 64) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: Array(header.utf8))
        data.append(body)
        return data
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// The text after `'key':` in a NumPy header dictionary, up to the next top-level comma.
    private static func headerValue(_ header: String, _ key: String) -> String? {
        guard let range = header.range(of: "'\(key)':") ?? header.range(of: "\"\(key)\":") else { return nil }
        var depth = 0
        var value = ""
        for c in header[range.upperBound...] {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if (c == "," && depth == 0) || c == "}" { break }
            value.append(c)
        }
        return value.trimmingCharacters(in: .whitespaces)
    }

    /// IEEE 754 half precision to single.
    private static func half(_ h: UInt16) -> Float {
        let sign: Float = h & 0x8000 == 0 ? 1 : -1
        let exponent = Int((h >> 10) & 0x1F)
        let mantissa = Float(h & 0x3FF)
        if exponent == 0 { return sign * mantissa * 0x1p-24 }
        if exponent == 31 { return mantissa == 0 ? sign * .infinity : .nan }
        return sign * (1 + mantissa / 1024) * Float(sign: .plus, exponent: exponent - 15, significand: 1)
    }
}
