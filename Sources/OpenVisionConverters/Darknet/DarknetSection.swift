import Foundation

/// One `key=value` of a section, with the line it came from.
package struct DarknetOption: Sendable {
    var value: String
    var line: Int
}

/// One `[name]` section of a `.cfg` and its options.
///
/// Lines are read the way OpenCV 4.6's `ReadDarknetFromCfgStream` reads them, so that what this
/// checks is what OpenCV then builds: a line is split at `\n`, every byte outside `!`...`z` (spaces,
/// tabs, `\r`, `{|}~`, anything non-ASCII) is dropped, lines starting with `#` or `;` are comments,
/// section names are case-sensitive (as in darknet too). Values are read strictly: an integer is an
/// optional sign and digits, a number is a decimal, so the lenient C++ stream reads OpenCV does
/// (`1e3` as 1, `2.5` as 2, `abc` as 0) never disagree with the checks.
package struct DarknetSection: Sendable {
    var name: String
    var line: Int
    var fileName: String
    var options: [String: DarknetOption] = [:]

    /// The most keys one section may set (real sections set fewer than 30).
    static let maxKeys = 1_000

    /// Splits `.cfg` text into sections. With `lastKeyWins`, a key set twice in a section takes its
    /// last value (OpenCV's reading) instead of being an error (the converter's: which one the
    /// network was trained with is unclear). Stops with `limitExceeded` past `maxSections` sections.
    static func parse(
        _ text: String, fileName: String, lastKeyWins: Bool = false,
        maxSections: Int = DarknetLimits.maxLayers + 1
    ) throws -> [DarknetSection] {
        var sections: [DarknetSection] = []
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let kept = rawLine.filter { $0 > 0x20 && $0 <= 0x7A }
            guard let first = kept.first, first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { continue }
            let line = String(decoding: kept, as: UTF8.self)
            let shown = Self.shown(rawLine)
            if first == UInt8(ascii: "[") {
                let inner = line.dropFirst().dropLast()
                guard line.hasSuffix("]"), !inner.isEmpty, !inner.contains("]"), !inner.contains("[") else {
                    throw ConversionError(
                        .syntax, "malformed section header '\(shown)'", file: fileName, line: lineNumber)
                }
                guard sections.count < maxSections else {
                    throw ConversionError(
                        .limitExceeded,
                        "the cfg has more than \(maxSections) sections "
                            + "(at most \(DarknetLimits.maxLayers) layers)", file: fileName, line: lineNumber)
                }
                sections.append(DarknetSection(name: String(inner), line: lineNumber, fileName: fileName))
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw ConversionError(
                    .syntax, "expected '[section]' or 'key=value', found '\(shown)'",
                    file: fileName, line: lineNumber)
            }
            let key = String(line[..<eq])
            let value = String(line[line.index(after: eq)...])
            guard !key.isEmpty else {
                throw ConversionError(.syntax, "a value without a key: '\(shown)'", file: fileName, line: lineNumber)
            }
            guard !sections.isEmpty else {
                throw ConversionError(.syntax, "'\(key)' before the first [section]", file: fileName, line: lineNumber)
            }
            if value.isEmpty { continue }  // darknet and OpenCV treat "key=" as absent
            let last = sections.count - 1
            if let earlier = sections[last].options[key], !lastKeyWins {
                throw ConversionError(
                    .syntax,
                    "'\(key)' is set twice in [\(sections[last].name)] "
                        + "(first on line \(earlier.line))", file: fileName, line: lineNumber)
            }
            guard sections[last].options.count < maxKeys || sections[last].options[key] != nil else {
                throw ConversionError(
                    .limitExceeded, "[\(sections[last].name)] sets more than \(maxKeys) keys",
                    file: fileName, line: lineNumber)
            }
            sections[last].options[key] = DarknetOption(value: value, line: lineNumber)
        }
        return sections
    }

    /// A line as written, trimmed and cut to 80 characters, for messages.
    private static func shown(_ bytes: Substring.UTF8View) -> String {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    func has(_ key: String) -> Bool { options[key] != nil }

    func string(_ key: String) -> String? { options[key]?.value }

    /// An error on the line of `key` when it is set, else on the section header.
    func error(_ kind: ConversionError.Code, _ message: String, key: String? = nil) -> ConversionError {
        let line = key.flatMap { options[$0]?.line } ?? self.line
        return ConversionError(kind, message, file: fileName, line: line)
    }

    private func required(_ key: String) throws -> DarknetOption {
        guard let option = options[key] else {
            throw error(.missingKey, "[\(name)] is missing the key '\(key)'")
        }
        return option
    }

    /// An optional sign and decimal digits, within ±`DarknetLimits.maxIndex` (else `limitExceeded`).
    /// Nil when `text` is not an integer.
    private func parseInt(_ text: Substring, key: String) throws -> Int? {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let value = Int(text), value.magnitude <= UInt(DarknetLimits.maxIndex) else {
            throw error(.limitExceeded, "[\(name)] \(key)=\(text) is out of range", key: key)
        }
        return value
    }

    /// A decimal number (`0.5`, `-3`, `1e-3`, `.5`): no hex, `inf` or `nan`, which C++ streams read otherwise.
    private static func parseFloat(_ text: Substring) -> Float? {
        guard text.allSatisfy({ "0123456789+-.eE".contains($0) }), text.contains(where: \.isNumber),
            let value = Float(text), value.isFinite
        else { return nil }
        return value
    }

    /// An integer option; above `max` (or below -`DarknetLimits.maxIndex`) is `limitExceeded`,
    /// below `min` or not an integer is `invalidValue`.
    func int(
        _ key: String, default defaultValue: Int? = nil, min: Int? = nil,
        max: Int = DarknetLimits.maxIndex
    ) throws -> Int {
        guard let option = options[key] else {
            if let defaultValue { return defaultValue }
            _ = try required(key)
            return 0
        }
        guard let value = try parseInt(option.value[...], key: key) else {
            throw error(.invalidValue, "[\(name)] \(key)=\(option.value) is not an integer", key: key)
        }
        if let min, value < min {
            throw error(.invalidValue, "[\(name)] \(key)=\(value) must be at least \(min)", key: key)
        }
        guard value <= max else {
            throw error(.limitExceeded, "[\(name)] \(key)=\(value) is out of range (at most \(max))", key: key)
        }
        return value
    }

    /// A 0-or-1 option such as `batch_normalize` (darknet reads any non-zero as 1, OpenCV only 1).
    func flag(_ key: String) throws -> Bool {
        let value = try int(key, default: 0)
        guard value == 0 || value == 1 else {
            throw error(.invalidValue, "[\(name)] \(key)=\(value) must be 0 or 1", key: key)
        }
        return value == 1
    }

    func float(_ key: String, default defaultValue: Float? = nil) throws -> Float {
        guard let option = options[key] else {
            if let defaultValue { return defaultValue }
            _ = try required(key)
            return 0
        }
        guard let value = Self.parseFloat(option.value[...]) else {
            throw error(.invalidValue, "[\(name)] \(key)=\(option.value) is not a number", key: key)
        }
        return value
    }

    /// The items of a comma-separated list. A trailing comma is allowed (both readers ignore it);
    /// an empty item elsewhere is not (OpenCV would read an uninitialised value for it).
    private func items(_ key: String, max: Int) throws -> [Substring] {
        let option = try required(key)
        var items = option.value.split(separator: ",", omittingEmptySubsequences: false)
        if items.count > 1, items.last?.isEmpty == true { items.removeLast() }
        guard items.count <= max else {
            throw error(.limitExceeded, "[\(name)] \(key) lists \(items.count) values, more than \(max)", key: key)
        }
        guard !items.contains(where: \.isEmpty) else {
            throw error(.invalidValue, "[\(name)] \(key)=\(option.value) has an empty item", key: key)
        }
        return items
    }

    /// A comma-separated list of integers, each within ±`DarknetLimits.maxIndex`, at most
    /// `DarknetLimits.maxAnchors` items.
    func ints(_ key: String) throws -> [Int] {
        try items(key, max: DarknetLimits.maxAnchors).map { item in
            guard let value = try parseInt(item, key: key) else {
                throw error(.invalidValue, "[\(name)] \(key): '\(item)' is not an integer", key: key)
            }
            return value
        }
    }

    /// A comma-separated list of numbers, at most 2 × `DarknetLimits.maxAnchors` items.
    func floats(_ key: String) throws -> [Float] {
        try items(key, max: 2 * DarknetLimits.maxAnchors).map { item in
            guard let value = Self.parseFloat(item) else {
                throw error(.invalidValue, "[\(name)] \(key): '\(item)' is not a number", key: key)
            }
            return value
        }
    }

    /// The `activation` key: required by the converter on a convolution (darknet's default is
    /// logistic, OpenCV's linear), linear when absent otherwise.
    func activation(required: Bool) throws -> DarknetActivation {
        guard let value = options["activation"]?.value else {
            if required {
                throw error(
                    .missingKey,
                    "[\(name)] is missing the key 'activation' (darknet's default is logistic, "
                        + "OpenCV's linear: write the one the network was trained with)")
            }
            return .linear
        }
        guard let activation = DarknetActivation(rawValue: value) else {
            throw error(
                .unsupported,
                "[\(name)] activation=\(value) is not supported; supported: "
                    + DarknetActivation.allCases.map(\.rawValue).joined(separator: ", "), key: "activation")
        }
        return activation
    }

    /// Throws when one of `keys` is set to something other than 0.
    func rejectUnsupported(_ keys: [String]) throws {
        for key in keys {
            guard let option = options[key] else { continue }
            if let number = Double(option.value), number == 0 { continue }
            throw error(.unsupported, "[\(name)] \(key)=\(option.value) is not supported", key: key)
        }
    }
}
