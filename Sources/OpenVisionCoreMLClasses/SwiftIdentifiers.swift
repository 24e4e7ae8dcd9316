import OpenVisionConverters

/// Swift identifiers for a model's class and features, as the generated classes use them.
///
/// A name becomes an identifier as Xcode makes one: characters other than ASCII letters, digits and `_` become `_`
/// (`input.1` → `input_1`, `é` → `_`), a leading digit gets a `_` before it (`3x` → `_3x`); a name of underscores only
/// gets `feature` before it (`-` → `feature_`). Keywords are back-quoted (`` `class` ``), except `self`, which cannot
/// be. Features that would share an identifier, take one of the names the generated classes use themselves
/// (`featureNames`, `provider`, the types their code names) or one derived from another feature (`y` makes
/// `yShapedArray`) are told apart deterministically: names that are already identifiers keep them, the others
/// take the first free `_2`, `_3`, … in the model's order.
enum SwiftIdentifiers {
    /// The longest feature name mapped (UTF-8 bytes); a longer one is refused.
    static let maximumNameBytes = 1024

    /// Swift's keywords (The Swift Programming Language, "Lexical Structure": declarations, statements,
    /// expressions and types, patterns, and the context-specific ones), back-quoted when they name a feature.
    static let keywords: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "precedencegroup", "private",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types; patterns.
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
        // Context-specific.
        "associativity", "async", "convenience", "didSet", "dynamic", "final", "get", "indirect", "infix", "lazy",
        "left", "mutating", "none", "nonmutating", "optional", "override", "package", "postfix", "precedence", "prefix",
        "Protocol", "required", "right", "set", "some", "Type", "unowned", "weak", "willSet",
        // Newer contextual keywords (ownership, parameter packs, concurrency, macros).
        "any", "each", "consume", "copy", "discard", "macro", "sending", "isolated", "then", "actor", "distributed",
    ]

    /// Names a feature may not take: the generated classes' own members (`featureNames`, `featureValue(for:)`,
    /// `provider`, the model class's locals), and every name their code uses unqualified (types and constants),
    /// which a member of the same name would hide. `self` is here: it cannot be back-quoted.
    static let reserved: Set<String> = [
        "self", "featureNames", "featureValue", "provider", "features", "input_", "outFeatures", "batchIn", "batchOut",
        "results", "outProvider", "type",
        "MLFeatureValue", "MLMultiArray", "MLShapedArray", "MLFeatureProvider", "MLDictionaryFeatureProvider",
        "MLModel",
        "MLModelConfiguration", "MLPredictionOptions", "MLArrayBatchProvider", "CVPixelBuffer", "CGImage", "URL",
        "Bundle", "Set", "String", "Double", "Int64", "Int32", "Float", "Float16", "Swift", "Error", "Result", "Void",
        "CoreML", "Foundation", "kCVPixelFormatType_32ARGB", "kCVPixelFormatType_OneComponent8",
    ]

    /// `name` with every character that cannot be in an identifier mapped (see the type's description); not yet
    /// checked against keywords or other features.
    static func base(_ name: String) -> String {
        var s = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { c in
                    (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_")) ? c : "_"
                }))
        if s.allSatisfy({ $0 == "_" }) { s = "feature" + s }
        if let first = s.unicodeScalars.first, ("0"..."9").contains(first) { s = "_" + s }
        return s
    }

    /// `identifier` as written in code: back-quoted when it is a keyword.
    static func spelled(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// The class name of a model file named `name` (its file name without the extension): `base(name)`; `name` must
    /// have an ASCII letter or digit, and the class must not be a keyword or a name the generated code uses. Throws `.unsupported` naming
    /// the file otherwise: renaming the file is the way out.
    static func className(_ name: String) throws -> String {
        let mapped = base(name)
        guard name.utf8.count <= maximumNameBytes else {
            throw ConversionError(
                .unsupported,
                "the model's file name is \(name.utf8.count) bytes long; a class name "
                    + "takes at most \(maximumNameBytes)")
        }
        guard
            name.unicodeScalars.contains(where: {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
            }),
            !keywords.contains(mapped), !reserved.contains(mapped)
        else {
            throw ConversionError(
                .unsupported,
                "the model file name \(quoted(name)) would make the class \(mapped), "
                    + "which is a Swift keyword or a name the generated code uses; rename the model file")
        }
        return mapped
    }

    /// A name as messages show it: a Swift literal (control characters escaped), cut after 80 characters.
    static func quoted(_ name: String) -> String {
        let scalars = name.unicodeScalars
        let cut = scalars.count > 80 ? String(String.UnicodeScalarView(scalars.prefix(80))) + "…" : name
        return SwiftSourceText.literal(cut)
    }

    /// Identifiers for `names` (the inputs or the outputs of one model, in order), none in `taken`; `derived` gives
    /// the other names a feature's identifier claims in the same class (`setImage` for `image`, `yShapedArray` for
    /// `y`). Deterministic: names that are identifiers already and free keep them, then the others take the first
    /// free of `base`, `base_2`, `base_3`, … in order. Throws `.unsupported` for a name given twice or one longer
    /// than `maximumNameBytes`, naming it.
    static func assign(
        _ names: [String], what: String, taken reservedNames: Set<String>,
        derived: (Int, String) -> [String]
    ) throws -> [String] {
        var seen = Set<String>()
        for name in names {
            guard name.utf8.count <= maximumNameBytes else {
                throw ConversionError(
                    .unsupported,
                    "the \(what) \(quoted(name)) has a name of \(name.utf8.count) bytes; "
                        + "the generated class takes names of at most \(maximumNameBytes)")
            }
            guard seen.insert(name).inserted else {
                throw ConversionError(.unsupported, "the model declares the \(what) \(quoted(name)) twice")
            }
        }
        var taken = reservedNames.union(reserved)
        var result = [String?](repeating: nil, count: names.count)
        func claim(_ i: Int, _ candidate: String) -> Bool {
            let claims = [candidate] + derived(i, candidate)
            guard claims.allSatisfy({ !taken.contains($0) }), Set(claims).count == claims.count else { return false }
            taken.formUnion(claims)
            result[i] = candidate
            return true
        }
        for (i, name) in names.enumerated() where base(name) == name { _ = claim(i, name) }
        for (i, name) in names.enumerated() where result[i] == nil {
            let stem = base(name)
            if claim(i, stem) { continue }
            var k = 2
            while !claim(i, "\(stem)_\(k)") { k += 1 }
        }
        return result.map { $0! }
    }
}
