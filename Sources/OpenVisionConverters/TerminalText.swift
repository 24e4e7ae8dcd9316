/// Text from files (model names, labels, descriptions, metadata, recognised text, barcode payloads, file names) made
/// safe for a terminal: a model whose metadata holds `ESC ] 0 ; title BEL` must not retitle the window, clear the
/// screen or forge an output line. Used wherever the command-line tool prints such text (`models info`, `--format
/// text`/`table`, error lines).
public enum TerminalText {
    /// The most characters of one value `escaped` prints (a 1 MB feature name is cut, with "…").
    public static let defaultLimit = 1000

    /// `text` with every control character (C0 but tab, DEL, C1 — ESC, CR, NUL, the line breaks), line and
    /// paragraph separator and bidirectional formatting character written as `\u{…}`, cut after `limit` characters.
    public static func escaped(_ text: String, limit: Int = defaultLimit) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            if needsEscape(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `scalar` is written escaped: C0 controls but tab, DEL, C1 controls, U+2028, U+2029, and the
    /// bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A…U+202E,
    /// U+2066…U+2069).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
