/// The shape of generated Swift source as a sequence of token kinds: words (identifiers, keywords, back-quoted
/// names) and numbers are one kind each, string literals and comments (line, doc, nested block) one kind each,
/// punctuation is kept as written. Two sources with the same skeleton differ only in the names, literals, numbers
/// and comment text they hold, never in their declarations or statements.
///
/// `CoreMLClassGenerator` renders each model twice, with the model's own names and descriptions and with
/// placeholders, and writes the code only when the skeletons agree: a string that escaped its literal or comment
/// would add tokens. The lexer knows what the generated code holds (no interpolation, no multi-line or raw
/// strings); an unterminated literal or comment is a skeleton of its own, which never matches a template's.
enum SwiftTokenSkeleton {
    enum Token: Equatable {
        case word
        case number
        case string
        case comment
        case punctuation(Unicode.Scalar)
        /// A literal or block comment that does not end.
        case unterminated
    }

    static func tokens(_ source: String) -> [Token] {
        let s = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\n" || c == "\t" || c == "\r" {
                i += 1
            } else if c == "/" && i + 1 < s.count && s[i + 1] == "/" {
                // A line comment ends at the line's end (LF or CR), as Swift's lexer ends it.
                while i < s.count && s[i] != "\n" && s[i] != "\r" { i += 1 }
                tokens.append(.comment)
            } else if c == "/" && i + 1 < s.count && s[i + 1] == "*" {
                // Block comments nest.
                var depth = 0
                while i < s.count {
                    if s[i] == "/" && i + 1 < s.count && s[i + 1] == "*" {
                        depth += 1
                        i += 2
                    } else if s[i] == "*" && i + 1 < s.count && s[i + 1] == "/" {
                        depth -= 1
                        i += 2
                        if depth == 0 { break }
                    } else {
                        i += 1
                    }
                }
                tokens.append(depth == 0 ? .comment : .unterminated)
            } else if c == "\"" {
                i += 1
                var closed = false
                while i < s.count {
                    if s[i] == "\\" {
                        i += 2
                    } else if s[i] == "\"" {
                        i += 1
                        closed = true
                        break
                    } else if s[i] == "\n" || s[i] == "\r" {
                        break
                    } else {
                        i += 1
                    }
                }
                tokens.append(closed ? .string : .unterminated)
            } else if c == "`" {
                i += 1
                while i < s.count && s[i] != "`" && s[i] != "\n" { i += 1 }
                tokens.append(i < s.count && s[i] == "`" ? .word : .unterminated)
                i += 1
            } else if ("0"..."9").contains(c) {
                // Digits, letters, `.` between digits, and a sign after an exponent's `e`.
                i += 1
                while i < s.count {
                    if isWord(s[i]) || (s[i] == "." && i + 1 < s.count && ("0"..."9").contains(s[i + 1])) {
                        i += 1
                    } else if (s[i] == "-" || s[i] == "+") && (s[i - 1] == "e" || s[i - 1] == "E") {
                        i += 1
                    } else {
                        break
                    }
                }
                tokens.append(.number)
            } else if isWord(c) {
                while i < s.count && isWord(s[i]) { i += 1 }
                tokens.append(.word)
            } else {
                tokens.append(.punctuation(c))
                i += 1
            }
        }
        return tokens
    }
}
