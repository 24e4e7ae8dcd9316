import Foundation

/// One option of the request kinds (`RequestKind`), declared once as a value (`RequestOption+BuiltIn.swift`): its name
/// (the HTTP query parameter and job-payload key; the command-line flag is its kebab case), one line of help, its type,
/// bounds or allowed values, and what it sets — a property of one or more request types (`Setter`), or how a model
/// request's model is loaded. The CLI's flags and `--help`, the HTTP API's query parameters and OpenAPI document, job
/// payloads and `RequestKind.options` all derive from the declaration; nothing else spells an option.
public struct RequestOption: Sendable, Hashable, CustomStringConvertible {
    /// The JSON / OpenAPI type of a value.
    public enum ValueType: String, Sendable, Hashable {
        /// A whole number (JSON number; OpenAPI `integer`).
        case integer
        /// A number (JSON number; OpenAPI `number`).
        case number
        /// One word or name (JSON and OpenAPI `string`).
        case string
        /// Several names: a JSON array of strings, or one string with them comma-separated (OpenAPI `string`).
        case list
    }

    /// What the option sets.
    public enum Role: Sendable, Hashable {
        /// Properties of the requests that read it.
        case request
        /// The model a model request runs: a file path or a name in the model search path (`ModelLocator`).
        case model
        /// How that model is loaded (`VisionModel.Configuration`): set where the models are (the command line, a job's
        /// worker), not by an HTTP client, whose requests share the server's loaded models.
        case modelLoading
    }

    /// "maxRectangles": the query parameter and job-payload key.
    public let name: String
    /// One line for help texts and the OpenAPI document.
    public let help: String
    /// What a value must be, for messages ("an integer in 0...1000").
    public let valueDescription: String
    /// Its JSON / OpenAPI type.
    public let type: ValueType
    /// The bounds of a number, else nil.
    public let range: ClosedRange<Double>?
    /// The values an enumerated option (or each item of a list) may take, else nil.
    public let allowedValues: [String]?
    /// What it sets.
    public let role: Role
    let check: @Sendable (OptionValue) -> OptionValue?
    let setters: [ObjectIdentifier: @Sendable (OptionValue, inout any VisionRequest) -> Void]
    let configure: (@Sendable (OptionValue, inout VisionModel.Configuration) -> Void)?

    /// The command-line flag without its dashes: the name in kebab case ("max-rectangles").
    public var flag: String {
        name.reduce(into: "") { text, c in
            if c.isUppercase { text += "-" + c.lowercased() } else { text.append(c) }
        }
    }

    /// True when an HTTP client may give it (every option but how models are loaded).
    public var isRemote: Bool { role != .modelLoading }

    /// True when requests of `type` read it.
    func isRead(by type: ObjectIdentifier) -> Bool { setters[type] != nil }

    /// The value as short text, for logs and command-line output.
    public var description: String { name }

    /// Options are equal when their names are.
    public static func == (a: RequestOption, b: RequestOption) -> Bool { a.name == b.name }
    /// Hashes the name (names are unique among options).
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The declared option called `name` (or spelled as its flag), if any.
    public static func named(_ name: String) -> RequestOption? {
        all.first { $0.name == name || $0.flag == name }
    }

    /// `value` checked against the declaration, in its canonical form (a list's items and a choice spelled as declared);
    /// text is parsed as a flag or query parameter gives it. `invalidArgument` naming the option otherwise.
    public func value(_ value: OptionValue) throws(VisionError) -> OptionValue {
        guard let checked = check(value) else {
            throw VisionError(.invalidArgument, "\(name)='\(value.description.prefix(80))' must be \(valueDescription)")
        }
        return checked
    }

    /// The value written as a flag or query parameter gives it (see `value(_:)`).
    public func value(parsing text: String) throws(VisionError) -> OptionValue { try value(.text(text)) }

    init(
        name: String, help: String, valueDescription: String, type: ValueType, range: ClosedRange<Double>? = nil,
        allowedValues: [String]? = nil, role: Role = .request,
        check: @escaping @Sendable (OptionValue) -> OptionValue?,
        setters: [ObjectIdentifier: @Sendable (OptionValue, inout any VisionRequest) -> Void] = [:],
        configure: (@Sendable (OptionValue, inout VisionModel.Configuration) -> Void)? = nil
    ) {
        self.name = name
        self.help = help
        self.valueDescription = valueDescription
        self.type = type
        self.range = range
        self.allowedValues = allowedValues
        self.role = role
        self.check = check
        self.setters = setters
        self.configure = configure
    }
}

// MARK: Declaring options

extension RequestOption {
    /// How an option of value type `Value` sets a property of one request type.
    struct Setter<Value>: Sendable {
        let type: ObjectIdentifier
        let apply: @Sendable (Value, inout any VisionRequest) -> Void

        /// Sets `R`'s property with `body`.
        static func on<R: VisionRequest>(_ type: R.Type, _ body: @escaping @Sendable (inout R, Value) -> Void) -> Setter
        {
            Setter(type: ObjectIdentifier(R.self)) { value, request in
                // The registry calls a setter only on requests of its type (`RequestOptions.apply(to:)`).
                guard var typed = request as? R else { return }
                body(&typed, value)
                request = typed
            }
        }

        /// Sets `R`'s property at `keyPath`.
        static func on<R: VisionRequest>(_ keyPath: WritableKeyPath<R, Value> & Sendable) -> Setter {
            on(R.self) { $0[keyPath: keyPath] = $1 }
        }

        /// Sets `R`'s optional property at `keyPath`.
        static func on<R: VisionRequest>(_ keyPath: WritableKeyPath<R, Value?> & Sendable) -> Setter {
            on(R.self) { $0[keyPath: keyPath] = $1 }
        }
    }

    private typealias Configure = @Sendable (OptionValue, inout VisionModel.Configuration) -> Void
    private typealias Check = @Sendable (OptionValue) -> OptionValue?

    private static func configurer<Value>(
        _ body: (@Sendable (Value, inout VisionModel.Configuration) -> Void)?,
        _ typed: @escaping @Sendable (OptionValue) -> Value?
    ) -> Configure? {
        guard let body else { return nil }
        return { value, configuration in
            if let v = typed(value) { body(v, &configuration) }
        }
    }

    private static func table<Value>(_ setters: [Setter<Value>], _ typed: @escaping @Sendable (OptionValue) -> Value?)
        -> [ObjectIdentifier: @Sendable (OptionValue, inout any VisionRequest) -> Void]
    {
        var table: [ObjectIdentifier: @Sendable (OptionValue, inout any VisionRequest) -> Void] = [:]
        for setter in setters {
            table[setter.type] = { value, request in
                if let v = typed(value) { setter.apply(v, &request) }
            }
        }
        return table
    }

    /// A whole number in `range`.
    static func integer(
        _ name: String, help: String, range: ClosedRange<Int>, sets setters: [Setter<Int>] = [],
        role: Role = .request, configure: (@Sendable (Int, inout VisionModel.Configuration) -> Void)? = nil
    )
        -> RequestOption
    {
        let typed: @Sendable (OptionValue) -> Int? = { value in
            let n: Int? =
                switch value {
                case .integer(let n): n
                case .number(let x): x.isFinite && x == x.rounded() && abs(x) < 1e15 ? Int(x) : nil
                case .text(let s): Int(s.trimmingCharacters(in: .whitespaces))
                case .list: nil
                }
            return n.flatMap { range.contains($0) ? $0 : nil }
        }
        let check: Check = { typed($0).map(OptionValue.integer) }
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        return RequestOption(
            name: name, help: help, valueDescription: "an integer in \(range.lowerBound)...\(range.upperBound)",
            type: .integer, range: bounds, role: role, check: check, setters: table(setters, typed),
            configure: configurer(configure, typed))
    }

    /// A finite number in `range`, set as a `Float`.
    static func number(
        _ name: String, help: String, range: ClosedRange<Double>, sets setters: [Setter<Float>] = [],
        role: Role = .request, configure: (@Sendable (Float, inout VisionModel.Configuration) -> Void)? = nil
    )
        -> RequestOption
    {
        let typed: @Sendable (OptionValue) -> Double? = { value in
            let x: Double? =
                switch value {
                case .integer(let n): Double(n)
                case .number(let x): x
                case .text(let s): Double(s.trimmingCharacters(in: .whitespaces))
                case .list: nil
                }
            return x.flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
        let bounds = "\(OptionValue.number(range.lowerBound))...\(OptionValue.number(range.upperBound))"
        let check: Check = { typed($0).map(OptionValue.number) }
        let float: @Sendable (OptionValue) -> Float? = { typed($0).map(Float.init) }
        return RequestOption(
            name: name, help: help, valueDescription: "a number in \(bounds)", type: .number, range: range,
            role: role, check: check, setters: table(setters, float), configure: configurer(configure, float))
    }

    /// One of `values` by name, case-insensitive (or as `parse` reads it: other spellings), set as its `T`.
    static func choice<T: Sendable & Equatable>(
        _ name: String, help: String, values: [(String, T)],
        parse: (@Sendable (String) -> T?)? = nil, sets setters: [Setter<T>] = [],
        role: Role = .request,
        configure: (@Sendable (T, inout VisionModel.Configuration) -> Void)? = nil
    )
        -> RequestOption
    {
        let names = values.map(\.0)
        let typed: @Sendable (OptionValue) -> T? = { value in
            guard case .text(let s) = value else { return nil }
            let key = s.trimmingCharacters(in: .whitespaces)
            if let parse { return parse(key) }
            return values.first { $0.0.lowercased() == key.lowercased() }?.1
        }
        let canonical: Check = { value in
            typed(value).flatMap { t in values.first { $0.1 == t }.map { OptionValue.text($0.0) } }
        }
        return RequestOption(
            name: name, help: help, valueDescription: "one of " + names.joined(separator: ", "), type: .string,
            allowedValues: names, role: role, check: canonical, setters: table(setters, typed),
            configure: configurer(configure, typed))
    }

    /// Several items: a JSON array, or text separated by `separators`; `count` items (and one of `counts` when given),
    /// each a canonical item of `item` (nil: refused).
    static func list(
        _ name: String, help: String, valueDescription: String, count: ClosedRange<Int>,
        counts: Set<Int>? = nil, separators: Set<Character> = [","], item: @escaping @Sendable (String) -> String?,
        allowedValues: [String]? = nil, sets setters: [Setter<[String]>] = [], role: Role = .request,
        configure: (@Sendable ([String], inout VisionModel.Configuration) -> Void)? = nil
    ) -> RequestOption {
        let typed: @Sendable (OptionValue) -> [String]? = { value in
            let raw: [String]
            switch value {
            case .list(let l): raw = l
            case .text(let s): raw = s.split(whereSeparator: { separators.contains($0) }).map(String.init)
            case .integer, .number: raw = [value.description]
            }
            let items = raw.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard count.contains(items.count), counts?.contains(items.count) ?? true else { return nil }
            let checked = items.compactMap(item)
            return checked.count == items.count ? checked : nil
        }
        let check: Check = { typed($0).map(OptionValue.list) }
        return RequestOption(
            name: name, help: help, valueDescription: valueDescription, type: .list,
            allowedValues: allowedValues, role: role, check: check,
            setters: table(setters, typed),
            configure: configurer(configure, typed))
    }

    /// Free text of 1...`maximumLength` characters, without control characters.
    static func text(
        _ name: String, help: String, maximumLength: Int, sets setters: [Setter<String>] = [],
        role: Role = .request
    ) -> RequestOption {
        let typed: @Sendable (OptionValue) -> String? = { value in
            guard case .text(let s) = value, (1...maximumLength).contains(s.count),
                !s.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
            else { return nil }
            return s
        }
        let check: Check = { typed($0).map(OptionValue.text) }
        return RequestOption(
            name: name, help: help, valueDescription: "text of 1 to \(maximumLength) characters",
            type: .string, role: role, check: check,
            setters: table(setters, typed))
    }
}
