/// The pieces of HTTP header syntax that media types (RFC 9110 §8.3.1) and `Content-Disposition`
/// (RFC 6266 §4.1) share: tokens, quoted strings and `;`-separated `name=value` parameters, over
/// the field value's bytes. Pure Swift without Foundation, so scripts/fuzz compiles it on its own.
enum HeaderSyntax {
    /// `tchar` (RFC 9110 §5.6.2): any visible ASCII character except delimiters.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func isToken(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isTokenByte) }

    /// Space or horizontal tab.
    static func isWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// One `name=value` parameter; `name` lower-cased (names are case-insensitive), `value` as sent
    /// (a quoted string without its quotes and escapes).
    struct Parameter: Sendable, Equatable {
        var name: String
        var value: String
    }

    /// Why a header value is malformed, in words for the client.
    struct Malformed: Error, Sendable, Equatable {
        var reason: String
    }

    /// A cursor over a field value's bytes.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ text: String) {
            // A field value excludes leading and trailing whitespace (RFC 9110 §5.5).
            var bytes = Array(text.utf8)
            while let last = bytes.last, HeaderSyntax.isWhitespace(last) { bytes.removeLast() }
            let start = bytes.firstIndex { !HeaderSyntax.isWhitespace($0) } ?? bytes.count
            self.bytes = Array(bytes[start...])
        }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        mutating func skipWhitespace() {
            while let b = current, HeaderSyntax.isWhitespace(b) { index += 1 }
        }

        /// Consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        /// `1*tchar`, or nil (nothing consumed) when the next byte is not a token character.
        mutating func token() -> String? {
            let start = index
            while let b = current, HeaderSyntax.isTokenByte(b) { index += 1 }
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE` (RFC 9110 §5.6.4), the opening quote next; the
        /// text without quotes, escapes undone.
        mutating func quotedString() throws(Malformed) -> String {
            precondition(current == UInt8(ascii: "\""))
            index += 1
            var text: [UInt8] = []
            while let b = current {
                index += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current, escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else {
                        throw Malformed(
                            reason: "a backslash at the end of a quoted string or before a control character")
                    }
                    text.append(escaped)
                    index += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF:
                    text.append(b)
                default:
                    throw Malformed(reason: "a control character in a quoted string")
                }
            }
            throw Malformed(reason: "a quoted string without its closing quote")
        }

        /// `*( OWS ";" OWS [ parameter ] )` to the end of the value (RFC 9110 §5.6.6), where
        /// `parameter = token "=" ( token / quoted-string )` with no whitespace around `=`.
        mutating func parameters() throws(Malformed) -> [Parameter] {
            var parameters: [Parameter] = []
            while true {
                skipWhitespace()
                if atEnd { return parameters }
                guard take(UInt8(ascii: ";")) else {
                    throw Malformed(reason: "'\(Self.describe(current))' where ';' or the end was expected")
                }
                skipWhitespace()
                if atEnd || current == UInt8(ascii: ";") { continue }  // an empty parameter is allowed
                guard let name = token() else {
                    throw Malformed(reason: "a parameter without a name (found '\(Self.describe(current))')")
                }
                guard take(UInt8(ascii: "=")) else {
                    throw Malformed(
                        reason: "parameter '\(name)' without '=' and a value (no space is allowed around '=')")
                }
                let value: String
                if current == UInt8(ascii: "\"") {
                    value = try quotedString()
                } else if let plain = token() {
                    value = plain
                } else {
                    throw Malformed(reason: "parameter '\(name)' without a value (a token or a quoted string)")
                }
                parameters.append(Parameter(name: name.lowercased(), value: value))
            }
        }

        private static func describe(_ byte: UInt8?) -> String {
            guard let byte else { return "the end" }
            return byte >= 0x21 && byte <= 0x7E ? String(UnicodeScalar(byte)) : "byte 0x" + String(byte, radix: 16)
        }
    }

    /// `value` as a token if it is one, else as a quoted string (the form a sender must use).
    static func serialize(_ value: String) -> String {
        if isToken(value) { return value }
        var out = "\""
        for c in value.unicodeScalars {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out + "\""
    }
}
