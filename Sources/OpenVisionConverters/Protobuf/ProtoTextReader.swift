/// Reads protobuf's text format (`.pbtxt`, `.prototxt`) as a stream of field events, without a
/// schema: `name: "conv1"`, `dim: 3`, `layer { ... }`, `attr < ... >`, `input: ["a", "b"]`,
/// `[type.googleapis.com/x] { ... }`, `#` comments, adjacent strings joined, C escapes in strings.
/// Iterative (nesting is bounded by `maxDepth`, not the stack), one pass, nothing allocated in
/// proportion to anything but the text itself; malformed text is a `ConversionError(.syntax)`
/// naming the line.
package struct ProtoTextReader {
    /// One field of the text.
    package enum Event: Equatable {
        /// A scalar field: strings unescaped, other values (numbers, enum names, `true`) as written.
        case scalar(name: String, value: String, line: Int)
        /// The start of a message field; its fields follow until the matching `end`.
        case begin(name: String, line: Int)
        case end
    }

    /// Protobuf's own text parser refuses deeper nesting by default; real graphs nest fewer than 10 deep.
    package static let maxDepth = 100

    private let bytes: [UInt8]
    private var index = 0
    private(set) var line = 1
    /// The closing character of every open message, innermost last.
    private var closers: [UInt8] = []
    /// Open `name: [ ... ]` lists, innermost last: the field name their items belong to and the
    /// message depth they are at.
    private var lists: [(name: String, depth: Int)] = []
    private let fileName: String

    package init(_ text: String, fileName: String) {
        bytes = Array(text.utf8)
        self.fileName = fileName
    }

    /// The nesting depth of the last event.
    package var depth: Int { closers.count }

    private func fail(_ message: String) -> ConversionError {
        ConversionError(.syntax, message, file: fileName, line: line)
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E
            || b == 0x2B || b == 0x2D
    }

    /// Skips whitespace and `#` comments, counting lines.
    private mutating func skipSpace() {
        while index < bytes.count {
            let b = bytes[index]
            if b == 0x0A {
                line += 1
                index += 1
            } else if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0B || b == 0x0C {
                index += 1
            } else if b == 0x23 {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    private mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func word() -> String? {
        let start = index
        while index < bytes.count, Self.isWordByte(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A quoted string at `index` (opening quote included), unescaped.
    private mutating func quoted() throws -> [UInt8] {
        let quote = bytes[index]
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count, bytes[index] != 0x0A else { throw fail("a string is not closed") }
            let b = bytes[index]
            index += 1
            if b == quote { return out }
            guard b == 0x5C else {
                out.append(b)
                continue
            }
            guard index < bytes.count else { throw fail("a string ends in a backslash") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                var value = 0
                var digits = 0
                while digits < 2, index < bytes.count, let d = Self.hexDigit(bytes[index]) {
                    value = value * 16 + d
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { throw fail("a \\x escape without hex digits") }
                out.append(UInt8(value))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(e - 0x30)
                var digits = 1
                while digits < 3, index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x37 {
                    value = value * 8 + Int(bytes[index] - 0x30)
                    digits += 1
                    index += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default: out.append(e)  // \" \' \\ \? and anything else as itself
            }
        }
    }

    private static func hexDigit(_ b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: Int(b - 0x30)
        case 0x41...0x46: Int(b - 0x41 + 10)
        case 0x61...0x66: Int(b - 0x61 + 10)
        default: nil
        }
    }

    /// A scalar value: one or more adjacent strings, or a word (number, enum name, `-inf`).
    private mutating func scalar() throws -> String {
        guard let b = peek() else { throw fail("a value is missing at the end of the text") }
        if b == 0x22 || b == 0x27 {
            var joined: [UInt8] = []
            while let next = peek(), next == 0x22 || next == 0x27 { joined += try quoted() }
            return String(decoding: joined, as: UTF8.self)
        }
        guard let value = word() else { throw fail("expected a value, found '\(Character(Unicode.Scalar(b)))'") }
        return value
    }

    /// A field name: a word, or an extension / Any name in brackets.
    private mutating func fieldName() throws -> String {
        if bytes[index] == 0x5B {
            let start = index
            while index < bytes.count, bytes[index] != 0x5D, bytes[index] != 0x0A { index += 1 }
            guard index < bytes.count, bytes[index] == 0x5D else { throw fail("an extension name is not closed") }
            index += 1
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        let found = Character(Unicode.Scalar(bytes[index]))
        guard let name = word(), let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else {
            throw fail("expected a field name, found '\(found)'")
        }
        return name
    }

    private mutating func open(_ name: String, closer: UInt8) throws -> Event {
        guard closers.count < Self.maxDepth else {
            throw ConversionError(
                .limitExceeded, "messages are nested more than \(Self.maxDepth) deep",
                file: fileName, line: line)
        }
        index += 1
        closers.append(closer)
        return .begin(name: name, line: line)
    }

    /// The next event, or nil at the end of the text.
    package mutating func next() throws -> Event? {
        while true {
            if let list = lists.last, list.depth == closers.count {
                // Inside `name: [ ... ]`: items separated by commas.
                guard var b = peek() else { throw fail("a list is not closed") }
                if b == 0x2C {
                    index += 1
                    guard let after = peek() else { throw fail("a list is not closed") }
                    b = after
                }
                if b == 0x5D {
                    index += 1
                    lists.removeLast()
                    continue
                }
                if b == 0x7B { return try open(list.name, closer: 0x7D) }
                if b == 0x3C { return try open(list.name, closer: 0x3E) }
                let itemLine = line
                return .scalar(name: list.name, value: try scalar(), line: itemLine)
            }
            guard let b = peek() else {
                guard closers.isEmpty else { throw fail("a message is not closed at the end of the text") }
                return nil
            }
            if b == 0x3B || b == 0x2C {
                index += 1
                continue
            }  // optional field separators
            if b == 0x7D || b == 0x3E {
                guard closers.last == b else { throw fail("'\(Character(Unicode.Scalar(b)))' closes no message") }
                closers.removeLast()
                index += 1
                return .end
            }
            let fieldLine = line
            let name = try fieldName()
            guard var next = peek() else { throw fail("field '\(name)' has no value") }
            var colon = false
            if next == 0x3A {
                colon = true
                index += 1
                guard let after = peek() else { throw fail("field '\(name)' has no value") }
                next = after
            }
            if next == 0x7B { return try open(name, closer: 0x7D) }
            if next == 0x3C { return try open(name, closer: 0x3E) }
            if next == 0x5B, colon {
                guard lists.count < Self.maxDepth else {
                    throw ConversionError(
                        .limitExceeded, "lists are nested more than \(Self.maxDepth) deep",
                        file: fileName, line: line)
                }
                index += 1
                lists.append((name, closers.count))
                continue
            }
            guard colon else { throw fail("field '\(name)' needs ':' before its value") }
            return .scalar(name: name, value: try scalar(), line: fieldLine)
        }
    }

    /// Skips the rest of the message just begun (its fields and nested messages).
    package mutating func skipMessage() throws {
        let target = closers.count - 1
        while closers.count > target {
            guard try next() != nil else { throw fail("a message is not closed at the end of the text") }
        }
    }
}
