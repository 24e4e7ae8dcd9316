/// A media type as RFC 9110 §8.3.1 defines it, e.g. the value of `Content-Type`:
/// `type "/" subtype *( OWS ";" OWS [ parameter ] )`. Type, subtype and parameter names are
/// case-insensitive (kept lower-cased); parameter values are kept as sent.
struct MediaType: Sendable, Equatable, CustomStringConvertible {
    var type: String
    var subtype: String
    var parameters: [HeaderSyntax.Parameter]

    /// Parses a field value; throws `HeaderSyntax.Malformed` saying what is wrong (an empty value,
    /// no `/`, a character outside a token, a broken parameter or quoted string).
    init(parsing text: String) throws(HeaderSyntax.Malformed) {
        var scanner = HeaderSyntax.Scanner(text)
        guard !scanner.atEnd else { throw HeaderSyntax.Malformed(reason: "an empty media type") }
        guard let type = scanner.token() else {
            throw HeaderSyntax.Malformed(reason: "no media type (type/subtype) before the parameters")
        }
        guard scanner.take(UInt8(ascii: "/")), let subtype = scanner.token() else {
            throw HeaderSyntax.Malformed(reason: "'\(type)' is not type/subtype")
        }
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = try scanner.parameters()
    }

    /// `type/subtype`, lower-cased.
    var essence: String { type + "/" + subtype }

    /// The values of parameter `name` (case-insensitive), in order.
    func values(of name: String) -> [String] {
        let key = name.lowercased()
        return parameters.filter { $0.name == key }.map(\.value)
    }

    /// The canonical form: lower-cased names, `; ` between parameters, values quoted only where needed.
    var description: String {
        parameters.reduce(essence) { $0 + "; " + $1.name + "=" + HeaderSyntax.serialize($1.value) }
    }
}
