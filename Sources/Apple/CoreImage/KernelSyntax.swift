import Foundation

/// The syntax of a Core Image Kernel Language source (the colour-kernel subset of GLSL that `CIKernel` takes):
/// functions, `kernel vec4` routines, declarations, assignments, `if`/`else`, `return`, and expressions. `parse`
/// gives nil for anything else (loops, preprocessor lines, arrays, structs, …) or for text that is not well formed.
struct KernelSyntax {
    /// A value type of the language.
    enum ValueType: Hashable {
        case float, vec2, vec3, vec4, bool
        /// `__sample`: an input image's pixel (a vec4 whose argument is an image).
        case sample
        /// `__color`: a colour argument (a vec4 whose argument is a `CIColor`).
        case color

        init?(_ name: String) {
            switch name {
            case "float": self = .float
            case "vec2": self = .vec2
            case "vec3": self = .vec3
            case "vec4": self = .vec4
            case "bool": self = .bool
            case "__sample": self = .sample
            case "__color": self = .color
            default: return nil
            }
        }

        /// The type values of this one compute as (`__sample` and `__color` are vec4).
        var value: ValueType { self == .sample || self == .color ? .vec4 : self }

        /// Components: 1 for float and bool, n for vecn.
        var components: Int {
            switch self {
            case .float, .bool: 1
            case .vec2: 2
            case .vec3: 3
            case .vec4, .sample, .color: 4
            }
        }

        static func vector(_ n: Int) -> ValueType { [.float, .vec2, .vec3, .vec4][n - 1] }
    }

    indirect enum Expression {
        case number(Float)
        case boolean(Bool)
        case name(String)
        case call(String, [Expression])
        case field(Expression, String)
        case unary(String, Expression)
        case binary(String, Expression, Expression)
        case conditional(Expression, Expression, Expression)
    }

    indirect enum Statement {
        case declare(ValueType, constant: Bool, [(String, Expression?)])
        /// `name = value`, `name.xy += value`, …: the variable, the swizzle written (if any), the operator.
        case assign(String, String?, String, Expression)
        case branch(Expression, [Statement], [Statement]?)
        case give(Expression?)
        case block([Statement])
    }

    struct Parameter {
        let type: ValueType
        let name: String
    }

    struct Function {
        let isKernel: Bool
        let returns: ValueType
        let name: String
        let parameters: [Parameter]
        let body: [Statement]
    }

    let functions: [Function]

    /// Sources longer than this are refused (1 MB of text).
    static let maximumLength = 1 << 20
    /// Deepest nesting of expressions and blocks (the parser recurses).
    static let maximumDepth = 128

    /// The functions of `source`, or nil when it is not well-formed text of the subset.
    static func parse(_ source: String) -> KernelSyntax? {
        guard source.utf8.count <= maximumLength, let tokens = Lexer.tokens(source) else { return nil }
        var parser = Parser(tokens: tokens)
        var functions: [Function] = []
        while !parser.atEnd {
            guard let f = parser.function() else { return nil }
            functions.append(f)
        }
        return functions.isEmpty ? nil : KernelSyntax(functions: functions)
    }

    enum Token: Equatable {
        case word(String)
        case number(Float)
        case symbol(String)
    }

    /// Splits source text into tokens; nil on a character the language does not have (or `#`).
    enum Lexer {
        static let symbols = [
            "&&", "||", "^^", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "++", "--",
            "+", "-", "*", "/", "<", ">", "=", "!", "?", ":", ";", ",", ".", "(", ")", "{", "}",
        ]

        static func tokens(_ source: String) -> [Token]? {
            let s = Array(source.utf8)
            var i = 0
            var out: [Token] = []
            func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
            func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
            while i < s.count {
                let c = s[i]
                if c == 32 || c == 9 || c == 10 || c == 13 || c == 12 {
                    i += 1
                } else if c == 47, i + 1 < s.count, s[i + 1] == 47 {
                    while i < s.count, s[i] != 10 { i += 1 }
                } else if c == 47, i + 1 < s.count, s[i + 1] == 42 {
                    i += 2
                    while i + 1 < s.count, !(s[i] == 42 && s[i + 1] == 47) { i += 1 }
                    guard i + 1 < s.count else { return nil }
                    i += 2
                } else if isLetter(c) {
                    let start = i
                    while i < s.count, isLetter(s[i]) || isDigit(s[i]) { i += 1 }
                    out.append(.word(String(decoding: s[start..<i], as: UTF8.self)))
                } else if isDigit(c) || (c == 46 && i + 1 < s.count && isDigit(s[i + 1])) {
                    let start = i
                    while i < s.count, isDigit(s[i]) { i += 1 }
                    if i < s.count, s[i] == 46 {
                        i += 1
                        while i < s.count, isDigit(s[i]) { i += 1 }
                    }
                    if i < s.count, s[i] == 101 || s[i] == 69 {
                        var j = i + 1
                        if j < s.count, s[j] == 43 || s[j] == 45 { j += 1 }
                        guard j < s.count, isDigit(s[j]) else { return nil }
                        i = j
                        while i < s.count, isDigit(s[i]) { i += 1 }
                    }
                    guard let v = Float(String(decoding: s[start..<i], as: UTF8.self)) else { return nil }
                    // A suffix glued to a number (`1.0f`, `2x`) is not the language's.
                    if i < s.count, isLetter(s[i]) { return nil }
                    out.append(.number(v))
                } else {
                    guard
                        let symbol = symbols.first(where: { sym in
                            let u = Array(sym.utf8)
                            return i + u.count <= s.count && Array(s[i..<i + u.count]) == u
                        })
                    else { return nil }
                    out.append(.symbol(symbol))
                    i += symbol.utf8.count
                }
            }
            return out
        }
    }

    /// A recursive-descent parser over the tokens; every method gives nil on a syntax error.
    struct Parser {
        let tokens: [Token]
        var index = 0
        var depth = 0

        init(tokens: [Token]) { self.tokens = tokens }

        var atEnd: Bool { index >= tokens.count }
        var peek: Token? { index < tokens.count ? tokens[index] : nil }

        mutating func take(_ symbol: String) -> Bool {
            guard peek == .symbol(symbol) else { return false }
            index += 1
            return true
        }

        mutating func takeWord(_ word: String) -> Bool {
            guard peek == .word(word) else { return false }
            index += 1
            return true
        }

        mutating func name() -> String? {
            guard case .word(let w) = peek, !Self.reserved.contains(w), ValueType(w) == nil else { return nil }
            index += 1
            return w
        }

        static let reserved: Set<String> = [
            "kernel", "if", "else", "return", "for", "while", "do", "break", "continue", "discard", "const",
            "true", "false", "void", "int", "sampler", "struct", "uniform", "in", "out", "inout", "mat2", "mat3",
            "mat4",
        ]

        mutating func type() -> ValueType? {
            guard case .word(let w) = peek, let t = ValueType(w) else { return nil }
            index += 1
            return t
        }

        mutating func function() -> Function? {
            let isKernel = takeWord("kernel")
            guard let returns = type(), let name = name(), take("(") else { return nil }
            var parameters: [Parameter] = []
            if !take(")") {
                // `void` as the only parameter means none.
                if takeWord("void") {
                    guard take(")") else { return nil }
                } else {
                    repeat {
                        _ = takeWord("const")
                        guard let t = type(), let n = self.name() else { return nil }
                        parameters.append(Parameter(type: t, name: n))
                    } while take(",")
                    guard take(")") else { return nil }
                }
            }
            guard let body = block() else { return nil }
            return Function(isKernel: isKernel, returns: returns, name: name, parameters: parameters, body: body)
        }

        mutating func block() -> [Statement]? {
            guard take("{") else { return nil }
            depth += 1
            defer { depth -= 1 }
            guard depth < KernelSyntax.maximumDepth else { return nil }
            var body: [Statement] = []
            while !take("}") {
                guard !atEnd, let s = statement() else { return nil }
                body.append(s)
            }
            return body
        }

        mutating func statement() -> Statement? {
            if peek == .symbol("{") { return block().map { .block($0) } }
            if take(";") { return .block([]) }
            if takeWord("return") {
                if take(";") { return .give(nil) }
                guard let e = expression(), take(";") else { return nil }
                return .give(e)
            }
            if takeWord("if") {
                guard take("("), let condition = expression(), take(")"), let then = branchBody() else { return nil }
                var otherwise: [Statement]?
                if takeWord("else") {
                    guard let e = branchBody() else { return nil }
                    otherwise = e
                }
                return .branch(condition, then, otherwise)
            }
            let constant = takeWord("const")
            if let t = type() {
                var names: [(String, Expression?)] = []
                repeat {
                    guard let n = name() else { return nil }
                    var value: Expression?
                    if take("=") {
                        guard let e = expression() else { return nil }
                        value = e
                    }
                    names.append((n, value))
                } while take(",")
                guard take(";") else { return nil }
                return .declare(t, constant: constant, names)
            }
            guard !constant, let target = name() else { return nil }
            var swizzle: String?
            if take(".") {
                guard case .word(let w) = peek else { return nil }
                index += 1
                swizzle = w
            }
            guard case .symbol(let op) = peek, ["=", "+=", "-=", "*=", "/="].contains(op) else { return nil }
            index += 1
            guard let value = expression(), take(";") else { return nil }
            return .assign(target, swizzle, op, value)
        }

        /// The body of an `if` or `else`: a block, or one statement (an `else if` chain nests).
        mutating func branchBody() -> [Statement]? {
            depth += 1
            defer { depth -= 1 }
            guard depth < KernelSyntax.maximumDepth, let s = statement() else { return nil }
            if case .block(let b) = s { return b }
            // A declaration as the whole body of an `if` is not GLSL.
            if case .declare = s { return nil }
            return [s]
        }

        // MARK: Expressions, lowest precedence first

        mutating func expression() -> Expression? {
            depth += 1
            defer { depth -= 1 }
            guard depth < KernelSyntax.maximumDepth, let c = binary(0) else { return nil }
            if take("?") {
                guard let a = expression(), take(":"), let b = expression() else { return nil }
                return .conditional(c, a, b)
            }
            return c
        }

        static let levels: [[String]] = [
            ["||"], ["^^"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/"],
        ]

        mutating func binary(_ level: Int) -> Expression? {
            guard level < Self.levels.count else { return unary() }
            guard var left = binary(level + 1) else { return nil }
            // Each operator of a chain nests the tree one level deeper: it counts against the depth too.
            let base = depth
            defer { depth = base }
            while case .symbol(let op) = peek, Self.levels[level].contains(op) {
                index += 1
                depth += 1
                guard depth < KernelSyntax.maximumDepth, let right = binary(level + 1) else { return nil }
                left = .binary(op, left, right)
            }
            return left
        }

        mutating func unary() -> Expression? {
            if case .symbol(let op) = peek, ["-", "+", "!"].contains(op) {
                index += 1
                depth += 1
                defer { depth -= 1 }
                guard depth < KernelSyntax.maximumDepth, let e = unary() else { return nil }
                return .unary(op, e)
            }
            return postfix()
        }

        mutating func postfix() -> Expression? {
            guard var e = primary() else { return nil }
            while take(".") {
                guard case .word(let w) = peek else { return nil }
                index += 1
                e = .field(e, w)
            }
            return e
        }

        mutating func primary() -> Expression? {
            switch peek {
            case .number(let v):
                index += 1
                return .number(v)
            case .symbol("("):
                index += 1
                guard let e = expression(), take(")") else { return nil }
                return e
            case .word("true"):
                index += 1
                return .boolean(true)
            case .word("false"):
                index += 1
                return .boolean(false)
            case .word(let w):
                guard !Self.reserved.contains(w) else { return nil }
                index += 1
                guard take("(") else {
                    // A type name is only a constructor, never a value.
                    return ValueType(w) == nil ? .name(w) : nil
                }
                var arguments: [Expression] = []
                if !take(")") {
                    repeat {
                        guard let a = expression() else { return nil }
                        arguments.append(a)
                    } while take(",")
                    guard take(")") else { return nil }
                }
                return .call(w, arguments)
            default:
                return nil
            }
        }
    }
}
