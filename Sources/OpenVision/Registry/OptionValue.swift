/// The value of one request option (`RequestOption`) in its JSON form: what `RequestOptions` holds, what job payloads
/// store, and what the option's declaration checked. A number is `.integer` or `.number`, an enumerated or free value
/// `.text`, a list `.list`.
public enum OptionValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A whole number.
    case integer(Int)
    /// A real number.
    case number(Double)
    /// A string: an enumerated choice or a free value (a path, a label).
    case text(String)
    /// A list of strings.
    case list([String])

    /// Reads a JSON integer, number, string or array of strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int.self) {
            self = .integer(n)
        } else if let x = try? container.decode(Double.self) {
            self = .number(x)
        } else if let s = try? container.decode(String.self) {
            self = .text(s)
        } else {
            self = .list(try container.decode([String].self))
        }
    }

    /// Writes the JSON value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let n): try container.encode(n)
        case .number(let x): try container.encode(x)
        case .text(let s): try container.encode(s)
        case .list(let l): try container.encode(l)
        }
    }

    /// The text form a command-line flag or a query parameter gives (a list comma-separated): what
    /// `RequestOption.value(parsing:)` reads back.
    public var description: String {
        switch self {
        case .integer(let n): String(n)
        case .number(let x): x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
        case .text(let s): s
        case .list(let l): l.joined(separator: ",")
        }
    }
}
