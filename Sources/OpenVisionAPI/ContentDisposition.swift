/// A `Content-Disposition` field value (RFC 6266 §4.1), as a multipart/form-data part carries it
/// (RFC 7578 §4.2): `form-data; name="image"; filename="photo.jpg"`. The type is lower-cased; a
/// `filename*` in RFC 8187's `UTF-8''percent%20encoded` form wins over `filename`.
struct ContentDisposition: Sendable, Equatable {
    var type: String
    var parameters: [HeaderSyntax.Parameter]

    init(parsing text: String) throws(HeaderSyntax.Malformed) {
        var scanner = HeaderSyntax.Scanner(text)
        guard let type = scanner.token() else {
            throw HeaderSyntax.Malformed(reason: "no disposition type (form-data) before the parameters")
        }
        self.type = type.lowercased()
        self.parameters = try scanner.parameters()
    }

    /// The first value of parameter `name` (case-insensitive).
    func value(of name: String) -> String? {
        let key = name.lowercased()
        return parameters.first { $0.name == key }?.value
    }

    /// The form field's name.
    var name: String? { value(of: "name") }

    /// The file name: `filename*` when it decodes, else `filename`.
    var filename: String? {
        value(of: "filename*").flatMap(Self.decodeExtendedValue) ?? value(of: "filename")
    }

    /// RFC 8187 §3.2.1 `ext-value = charset "'" [ language ] "'" value-chars`, with the charsets every
    /// recipient must support (UTF-8, ISO-8859-1); nil when malformed (the plain parameter then applies).
    static func decodeExtendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(pieces[2].utf8)[...]
        while let b = utf8.popFirst() {
            if b == UInt8(ascii: "%") {
                guard utf8.count >= 2, let hi = hexValue(utf8.removeFirst()), let lo = hexValue(utf8.removeFirst())
                else { return nil }
                bytes.append(hi << 4 | lo)
            } else {
                bytes.append(b)
            }
        }
        switch pieces[0].lowercased() {
        case "utf-8":
            var scalars = String.UnicodeScalarView()
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): scalars.append(s)
                case .emptyInput: break loop
                case .error: return nil
                }
            }
            return String(scalars)
        case "iso-8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
