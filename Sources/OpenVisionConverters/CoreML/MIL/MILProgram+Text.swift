/// `MILProgram` from the MIL text Xcode's Core ML compiler writes into a compiled ML Program
/// (`model.mil` in an `.mlmodelc` folder). The grammar, as the files show it:
///
///     program(1.3)
///     [buildInfo = dict<string, string>({{"coremlc-version", "3500.14.1"}})]
///     {
///         func main<ios18>(tensor<fp32, [1, 3, ?, ?]> x)[FlexibleShapeInformation = …] {
///             tensor<int32, [2]> s = const()[name = string("s"), val = tensor<int32, [2]>([2, 2])];
///             tensor<fp16, [64, 3, 3, 3]> w = const()[name = string("w"), val = tensor<fp16, [64, 3, 3, 3]>(
///                 BLOBFILE(path = string("@model_path/weights/weight.bin"), offset = uint64(64)))];
///             tensor<fp16, [1, 64, ?, ?]> y = conv(strides = s, weight = w, x = x16)[name = string("y")];
///             tensor<fp16, [2, 8]> a, tensor<fp16, [2, 8]> b = split(axis = k, num_splits = n, x = z)[name = …];
///         } -> (y);
///     }
///
/// Older files (program(1.0)) spell scalars `tensor<string, []>("x")` and `tensor<uint64, []>(64)`; both
/// forms are read. Types: `tensor<T, [dims]>` (`?` an unknown size), a bare `T` for a scalar, `list<T, n>`,
/// `tuple<T, …>`, `dict<K, V>`, `state<T>`. Values: `TYPE(literal)` where the literal is a number (decimal or
/// C hex float), a string, `true`/`false`, `[…]` (a tensor's elements, row-major), `{{k, v}, …}` (a
/// dictionary), `(…)` (a tuple) or `BLOBFILE(path = …, offset = …)`. An argument is a name, a value, or
/// `(a, b, …)` for a variadic parameter. Nested blocks of control-flow operations are skipped (the
/// lowering reports those operations as unsupported). `//` comments are ignored.
extension MILProgram {
    /// Parses `model.mil` text. Throws `ConversionError(.syntax)` naming the line of the first problem.
    package init(text: String) throws {
        var parser = MILTextParser(Array(text.utf8))
        let parsed = try parser.program()
        try self.init(version: parsed.version, functions: parsed.functions, attributes: parsed.attributes)
    }
}

struct MILTextParser {
    let text: [UInt8]
    var index = 0
    var depth = 0

    init(_ text: [UInt8]) { self.text = text }

    // MARK: Lexing

    var line: Int { text[..<min(index, text.count)].lazy.filter { $0 == 0x0A }.count + 1 }

    func error(_ message: String) -> ConversionError {
        ConversionError(.syntax, "model.mil:\(line): \(message)")
    }

    mutating func skipSpace() {
        while index < text.count {
            let c = text[index]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                index += 1
            } else if c == UInt8(ascii: "/"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "/") {
                while index < text.count, text[index] != 0x0A { index += 1 }
            } else {
                return
            }
        }
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return index < text.count ? text[index] : nil
    }

    mutating func accept(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue, peek() == ascii else { return false }
        index += 1
        return true
    }

    mutating func expect(_ c: Character) throws {
        guard accept(c) else {
            let found = index < text.count ? "'\(Character(UnicodeScalar(text[index])))'" : "the end"
            throw error("expected '\(c)', found \(found)")
        }
    }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
    }

    static func isIdentifierPart(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) || c == 0x40 || c == 0x2E
    }

    /// An identifier (letters, digits, `_`, `@`, `.`), or nil when none starts here.
    mutating func identifier() -> String? {
        guard let c = peek(), Self.isIdentifierStart(c) else { return nil }
        let start = index
        while index < text.count, Self.isIdentifierPart(text[index]) { index += 1 }
        return String(decoding: text[start..<index], as: UTF8.self)
    }

    mutating func requireIdentifier(_ what: String) throws -> String {
        guard let id = identifier() else { throw error("expected \(what)") }
        return id
    }

    /// A keyword-like identifier without consuming it.
    mutating func peekIdentifier() -> String? {
        let saved = index
        defer { index = saved }
        return identifier()
    }

    /// A double-quoted string with C escapes.
    mutating func stringLiteral() throws -> String {
        try expect("\"")
        var bytes: [UInt8] = []
        while index < text.count {
            let c = text[index]
            index += 1
            if c == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
            if c == UInt8(ascii: "\\"), index < text.count {
                let e = text[index]
                index += 1
                switch e {
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                default: bytes.append(e)
                }
            } else {
                bytes.append(c)
            }
        }
        throw error("unterminated string")
    }

    /// A number token (decimal, exponent, C hex float, `inf`, `nan`) as written.
    mutating func numberToken() -> String? {
        guard let c = peek() else { return nil }
        let start = index
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { index += 1 }
        let body = index
        while index < text.count {
            let d = text[index]
            let isHex = index > body + 1 && (text[body + 1] == UInt8(ascii: "x") || text[body + 1] == UInt8(ascii: "X"))
            let exponentSign =
                (d == UInt8(ascii: "-") || d == UInt8(ascii: "+")) && index > body
                && [UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "p"), UInt8(ascii: "P")].contains(
                    text[index - 1])
                && (isHex ? text[index - 1] == UInt8(ascii: "p") || text[index - 1] == UInt8(ascii: "P") : true)
            if (d >= 0x30 && d <= 0x39) || d == UInt8(ascii: ".") || exponentSign || Self.isIdentifierStart(d) {
                index += 1
            } else {
                break
            }
        }
        guard index > body else {
            index = start
            return nil
        }
        let token = String(decoding: text[start..<index], as: UTF8.self)
        guard Double(token) != nil else {
            index = start
            return nil
        }
        return token
    }

    mutating func integer(_ what: String) throws -> Int {
        guard let token = numberToken(), let value = Int(token) else { throw error("expected \(what)") }
        return value
    }

    mutating func enter() throws {
        depth += 1
        guard depth <= MILLimits.maximumNesting else {
            throw ConversionError(
                .limitExceeded, "model.mil:\(line): nesting deeper than \(MILLimits.maximumNesting) levels")
        }
    }

    // MARK: Structure

    mutating func program() throws -> (version: Int64, functions: [String: MILFunction], attributes: [String: MILValue])
    {
        guard identifier() == "program" else { throw error("expected 'program'") }
        try expect("(")
        guard let versionToken = numberToken(), let version = Double(versionToken), version.isFinite, version >= 0,
            version < 1e6
        else {
            throw error("expected the program version")
        }
        try expect(")")
        let attributes = peek() == UInt8(ascii: "[") ? try attributeList() : [:]
        try expect("{")
        var functions: [String: MILFunction] = [:]
        while !accept("}") {
            guard identifier() == "func" else { throw error("expected 'func' or '}'") }
            let name = try requireIdentifier("a function name")
            guard functions[name] == nil else { throw error("function '\(name)' is defined twice") }
            functions[name] = try function()
        }
        skipSpace()
        guard index == text.count else { throw error("unexpected text after the program") }
        return (Int64(version), functions, attributes)
    }

    mutating func function() throws -> MILFunction {
        try expect("<")
        let opset = try requireIdentifier("an opset name")
        try expect(">")
        try expect("(")
        var inputs: [MILNamedType] = []
        if !accept(")") {
            repeat {
                let type = try self.type()
                inputs.append(MILNamedType(name: try requireIdentifier("an input name"), type: type))
            } while accept(",")
            try expect(")")
        }
        let attributes = peek() == UInt8(ascii: "[") ? try attributeList() : [:]
        let block = try self.block()
        return MILFunction(inputs: inputs, opset: opset, blockSpecializations: [opset: block], attributes: attributes)
    }

    /// `{ statements } -> (names)` (the arrow and names are optional in nested blocks of unknown form).
    mutating func block() throws -> MILBlock {
        try enter()
        defer { depth -= 1 }
        try expect("{")
        var block = MILBlock()
        while !accept("}") {
            guard peek() != nil else { throw error("unterminated block") }
            guard block.operations.count < MILLimits.maximumOperations else {
                throw ConversionError(
                    .limitExceeded, "model.mil:\(line): a block of more than \(MILLimits.maximumOperations) operations")
            }
            block.operations.append(try statement())
        }
        if accept("-") {
            try expect(">")
            try expect("(")
            if !accept(")") {
                repeat { block.outputs.append(try requireIdentifier("an output name")) } while accept(",")
                try expect(")")
            }
        }
        _ = accept(";")
        return block
    }

    /// `TYPE name (, TYPE name)* = op(args)[attributes] {nested blocks}? ;`
    mutating func statement() throws -> MILOperation {
        var outputs: [MILNamedType] = []
        repeat {
            let type = try self.type()
            outputs.append(MILNamedType(name: try requireIdentifier("an output name"), type: type))
        } while accept(",")
        try expect("=")
        var op = MILOperation(type: try requireIdentifier("an operation type"), outputs: outputs)
        try expect("(")
        if !accept(")") {
            repeat {
                let key = try requireIdentifier("an argument name")
                try expect("=")
                guard op.inputs[key] == nil else { throw error("argument '\(key)' is given twice") }
                op.inputs[key] = try bindings()
            } while accept(",")
            try expect(")")
        }
        if peek() == UInt8(ascii: "[") { op.attributes = try attributeList() }
        while peek() == UInt8(ascii: "{") { try skipBalanced() }
        try expect(";")
        return op
    }

    /// Skips a `{…}` group (a control-flow block) and what follows it up to `;`.
    mutating func skipBalanced() throws {
        var level = 0
        while index < text.count {
            let c = text[index]
            if c == UInt8(ascii: "\"") {
                _ = try stringLiteral()
                continue
            }
            index += 1
            if c == UInt8(ascii: "{") { level += 1 }
            if c == UInt8(ascii: "}") {
                level -= 1
                if level == 0 {
                    // `-> (outputs)` after a nested block.
                    let saved = index
                    if accept("-"), accept(">"), accept("(") {
                        while index < text.count, text[index] != UInt8(ascii: ")") { index += 1 }
                        index += 1
                    } else {
                        index = saved
                    }
                    return
                }
            }
        }
        throw error("unterminated block")
    }

    /// An argument: a name, a value, or a parenthesized list of them.
    mutating func bindings() throws -> [MILBinding] {
        if accept("(") {
            var items: [MILBinding] = []
            if !accept(")") {
                repeat { items.append(try binding()) } while accept(",")
                try expect(")")
            }
            return items
        }
        return [try binding()]
    }

    mutating func binding() throws -> MILBinding {
        if startsValue() { return .value(try value()) }
        return .name(try requireIdentifier("a value name or a literal"))
    }

    /// Whether a typed value starts here: a type word followed by `<` or `(`.
    mutating func startsValue() -> Bool {
        let saved = index
        defer { index = saved }
        guard let word = identifier(), Self.typeKeywords.contains(word) || MILDataType(textName: word) != nil else {
            return false
        }
        let next = peek()
        return next == UInt8(ascii: "<") || next == UInt8(ascii: "(")
    }

    /// `[key = value, …]`
    mutating func attributeList() throws -> [String: MILValue] {
        try expect("[")
        var result: [String: MILValue] = [:]
        if accept("]") { return result }
        repeat {
            let key = try requireIdentifier("an attribute name")
            try expect("=")
            result[key] = try value()
        } while accept(",")
        try expect("]")
        return result
    }

    // MARK: Types

    static let typeKeywords: Set<String> = ["tensor", "list", "tuple", "dict", "state"]

    mutating func type() throws -> MILType {
        try enter()
        defer { depth -= 1 }
        let word = try requireIdentifier("a type")
        switch word {
        case "tensor":
            try expect("<")
            let name = try requireIdentifier("an element type")
            guard let dataType = MILDataType(textName: name) else { throw error("unknown element type '\(name)'") }
            try expect(",")
            try expect("[")
            var dims: [Int?] = []
            var unknownRank = false
            if !accept("]") {
                repeat {
                    if accept("?") {
                        dims.append(nil)
                    } else if accept("*") {
                        unknownRank = true
                    } else if peek() == UInt8(ascii: "."), text[index...].starts(with: Array("...".utf8)) {
                        index += 3
                        unknownRank = true
                    } else if peekIdentifier() != nil {
                        _ = identifier()  // a symbolic size
                        dims.append(nil)
                    } else {
                        let d = try integer("a dimension")
                        guard d >= 0, d <= MILLimits.maximumDimension else {
                            throw ConversionError(.limitExceeded, "model.mil:\(line): a dimension of \(d)")
                        }
                        dims.append(d)
                    }
                } while accept(",")
                try expect("]")
            }
            try expect(">")
            return .tensor(dataType, unknownRank ? nil : dims)
        case "list":
            try expect("<")
            let element = try type()
            var length: Int?
            if accept(",") {
                if !accept("?") {
                    if peekIdentifier() != nil { _ = identifier() } else { length = try integer("a list length") }
                }
            }
            try expect(">")
            return .list(element, length: length)
        case "tuple":
            try expect("<")
            var types: [MILType] = []
            if !accept(">") {
                repeat { types.append(try type()) } while accept(",")
                try expect(">")
            }
            return .tuple(types)
        case "dict":
            try expect("<")
            let key = try type()
            try expect(",")
            let value = try type()
            try expect(">")
            return .dictionary(key: key, value: value)
        case "state":
            try expect("<")
            let wrapped = try type()
            try expect(">")
            return .state(wrapped)
        default:
            guard let dataType = MILDataType(textName: word) else { throw error("unknown type '\(word)'") }
            return .tensor(dataType, [])
        }
    }

    // MARK: Values

    /// `TYPE(content)`
    mutating func value() throws -> MILValue {
        let type = try self.type()
        try expect("(")
        let content = try self.content(for: type)
        try expect(")")
        return MILValue(type: type, content: content)
    }

    /// The literal of a value of `type` (between the parentheses, or an element inside a container).
    mutating func content(for type: MILType) throws -> MILValue.Content {
        try enter()
        defer { depth -= 1 }
        switch type {
        case .tensor(let dataType, _):
            if peekIdentifier() == "BLOBFILE" {
                _ = identifier()
                try expect("(")
                var path: String?
                var offset: UInt64?
                repeat {
                    let key = try requireIdentifier("path or offset")
                    try expect("=")
                    let v = try value()
                    guard case .immediate(.tensor(let storage)) = v.content else {
                        throw error("BLOBFILE \(key) must be a literal")
                    }
                    switch (key, storage) {
                    case ("path", .strings(let s)) where s.count == 1: path = s[0]
                    case ("offset", .longInts(let o)) where o.count == 1 && o[0] >= 0: offset = UInt64(o[0])
                    case ("offset", .doubles(let o)) where o.count == 1 && o[0] >= 0 && o[0] < 0x1p63:
                        offset = UInt64(o[0])
                    default: throw error("BLOBFILE has a bad \(key)")
                    }
                } while accept(",")
                try expect(")")
                guard let path, let offset else { throw error("BLOBFILE needs a path and an offset") }
                return .blob(file: path, offset: offset)
            }
            return .immediate(.tensor(try elements(of: dataType)))
        case .list(let elementType, _):
            try expect("[")
            var items: [MILValue] = []
            if !accept("]") {
                repeat { items.append(try element(elementType)) } while accept(",")
                try expect("]")
            }
            return .immediate(.list(items))
        case .tuple(let types):
            // The elements in parentheses: `((a, b))` for a tuple value written in a value's parentheses.
            let wrapped = accept("(")
            var items: [MILValue] = []
            for (k, t) in types.enumerated() {
                if k > 0 { try expect(",") }
                items.append(try element(t))
            }
            if wrapped { try expect(")") }
            return .immediate(.tuple(items))
        case .dictionary(let keyType, let valueType):
            try expect("{")
            var entries: [MILKeyValue] = []
            if !accept("}") {
                repeat {
                    try expect("{")
                    let key = try element(keyType)
                    try expect(",")
                    let value = try element(valueType)
                    try expect("}")
                    entries.append(MILKeyValue(key: key, value: value))
                } while accept(",")
                try expect("}")
            }
            return .immediate(.dictionary(entries))
        case .state:
            throw error("a state value cannot be written")
        }
    }

    /// An element of a container: a typed value, or a bare literal of `type`.
    mutating func element(_ type: MILType) throws -> MILValue {
        if startsValue() { return try value() }
        return MILValue(type: type, content: try content(for: type))
    }

    /// A tensor's elements: one literal, or `[…]` of literals (nested brackets flattened; typed scalars
    /// such as `fp16(0.5)` accepted).
    mutating func elements(of dataType: MILDataType) throws -> MILTensorStorage {
        var numbers: [Double] = []
        var integers: [Int64] = []
        var strings: [String] = []
        var bools: [Bool] = []
        var allIntegers = true
        func literal(_ p: inout MILTextParser) throws {
            if p.peek() == UInt8(ascii: "[") {
                try p.enter()
                defer { p.depth -= 1 }
                p.index += 1
                if p.accept("]") { return }
                repeat { try literal(&p) } while p.accept(",")
                try p.expect("]")
                return
            }
            if p.peek() == UInt8(ascii: "\"") {
                strings.append(try p.stringLiteral())
                return
            }
            if let word = p.peekIdentifier() {
                if word == "true" || word == "false" {
                    _ = p.identifier()
                    bools.append(word == "true")
                    return
                }
                if MILDataType(textName: word) != nil {
                    // A typed scalar inside a list: its literal.
                    _ = p.identifier()
                    try p.expect("(")
                    try literal(&p)
                    try p.expect(")")
                    return
                }
            }
            guard let token = p.numberToken(), let d = Double(token) else {
                throw p.error("expected a \(dataType.rawValue) literal")
            }
            numbers.append(d)
            if let i = Int64(token) { integers.append(i) } else { allIntegers = false }
        }
        try literal(&self)
        let kinds = [!numbers.isEmpty, !strings.isEmpty, !bools.isEmpty].filter { $0 }.count
        guard kinds <= 1 else { throw error("a tensor literal mixes numbers, strings and bools") }
        if !strings.isEmpty { return .strings(strings) }
        if !bools.isEmpty { return .bools(bools) }
        if dataType.isFloat || !allIntegers { return .doubles(numbers) }
        return .longInts(integers)
    }
}
