/// Model strings made safe for where they land in generated Swift: a string literal, or the text of a comment.
/// Whatever a model file holds, the result cannot end the literal or the comment, open another one, or start a
/// new line: the generated code's structure is the template's, whatever the names and descriptions say.
enum SwiftSourceText {
    /// The most characters of a model string a comment shows (the rest is cut, with "…").
    static let commentLimit = 240

    /// A Swift string literal of `text`: `"` and `\` escaped, and every scalar outside printable ASCII as
    /// `\u{…}` (line breaks, controls, bidirectional overrides, any other Unicode), so the literal is one line
    /// of plain ASCII that reads back as `text`.
    static func literal(_ text: String) -> String {
        var s = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                if c.value >= 0x20 && c.value < 0x7F {
                    s.unicodeScalars.append(c)
                } else {
                    s += "\\u{\(String(c.value, radix: 16))}"
                }
            }
        }
        return s + "\""
    }

    /// `text` as the text of a comment (a `///` line or inside a `/** … */` block): line breaks of every kind
    /// (LF, CR, VT, FF, NEL, U+2028, U+2029) and other control and format characters (NUL, C1, bidirectional
    /// overrides and isolates, zero-width characters) shown as `\u{…}`; `/*` and `*/` split as `/ *` and `* /`, so
    /// the text neither ends the comment nor opens a nested one; cut after `commentLimit` characters.
    static func comment(_ text: String) -> String {
        var s = ""
        var count = 0
        for c in text.unicodeScalars {
            if count == commentLimit {
                s += "…"
                break
            }
            count += 1
            switch c.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                s += c == "\t" ? " " : "\\u{\(String(c.value, radix: 16))}"
            default:
                // `*` after `/`, or `/` after `*`: a space between them.
                if (c == "*" && s.unicodeScalars.last == "/") || (c == "/" && s.unicodeScalars.last == "*") { s += " " }
                s.unicodeScalars.append(c)
            }
        }
        return s
    }
}
