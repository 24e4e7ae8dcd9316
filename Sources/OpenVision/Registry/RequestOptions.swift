import Foundation

/// The options a run of request kinds was given — as `openvision analyze|detect|classify|video|live` flags, HTTP query
/// parameters or a job's payload — by option (`RequestOption`), each value checked against its declaration and kept in
/// its canonical form. Unset options leave the request's own default (or the model's, for a Core ML detector
/// pipeline's thresholds). Codable as one JSON object keyed by option name (`{"maxRectangles":16,"symbologies":["qr"]}`),
/// which is how jobs store them; decoding checks every value and skips keys that name no option.
public struct RequestOptions: Sendable, Hashable, Codable {
    private var storage: [String: OptionValue] = [:]

    /// No options set: every request's defaults.
    public init() {}

    /// `base` with name → text pairs (query parameters, flags) applied, each parsed and checked as its option declares;
    /// an unknown name or a bad value is `invalidArgument`.
    public init(values: [String: String], base: RequestOptions = RequestOptions()) throws(VisionError) {
        self = base
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { try set(name, to: value) }
    }

    /// The value of `option`, if set (canonical: see `RequestOption.value(_:)`).
    public subscript(option: RequestOption) -> OptionValue? { storage[option.name] }

    /// Sets `option` to `value`, checked (`invalidArgument` for a value the declaration refuses); nil unsets it.
    public mutating func set(_ option: RequestOption, to value: OptionValue?) throws(VisionError) {
        storage[option.name] = try value.map { v throws(VisionError) in try option.value(v) }
    }

    /// Sets the option called `name` (or spelled as its flag) from its text form (`invalidArgument` for an unknown name
    /// or a bad value).
    public mutating func set(_ name: String, to text: String) throws(VisionError) {
        try set(try Self.option(name), to: .text(text))
    }

    /// The options that are set, by name.
    public var values: [String: OptionValue] { storage }

    /// The options that are set, as name → text (what `init(values:)` reads back).
    public var textValues: [String: String] { storage.mapValues(\.description) }

    /// True when nothing is set.
    public var isEmpty: Bool { storage.isEmpty }

    /// These options with `other`'s set on top.
    public func merging(_ other: RequestOptions) -> RequestOptions {
        var merged = self
        merged.storage.merge(other.storage) { $1 }
        return merged
    }

    static func option(_ name: String) throws(VisionError) -> RequestOption {
        guard let option = RequestOption.named(name) else {
            throw VisionError(
                .invalidArgument,
                "unknown option '\(name.prefix(80))'; choose from "
                    + RequestOption.all.map(\.name).joined(separator: ", "))
        }
        return option
    }

    // MARK: Applying

    /// Sets on `request` every option that its type reads (see `RequestOption.Setter`); the others are left alone.
    func apply(to request: inout any VisionRequest) {
        let type = ObjectIdentifier(Swift.type(of: request))
        for option in RequestOption.all {
            guard let value = storage[option.name], let set = option.setters[type] else { continue }
            set(value, &request)
        }
    }

    /// The `model` option: a model file's path, or its name in the model search path.
    public var modelName: String? {
        if case .text(let name) = storage[RequestOption.model.name] { return name }
        return nil
    }

    /// How a model request's model is loaded: the `.modelLoading` options set (backend, threads, pixel normalisation)
    /// on Vision's default configuration.
    public var modelConfiguration: VisionModel.Configuration {
        var configuration = VisionModel.Configuration()
        for option in RequestOption.all {
            if let configure = option.configure, let value = storage[option.name] { configure(value, &configuration) }
        }
        return configuration
    }

    // MARK: Codable

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads every key that names an option, checking its value (a `DecodingError.dataCorrupted` with the option's
    /// message otherwise); other keys are left to the container's owner (a job payload's `requests`, …).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for option in RequestOption.all where container.contains(Key(option.name)) {
            let key = Key(option.name)
            let value = try container.decode(OptionValue.self, forKey: key)
            do {
                try set(option, to: value)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
            }
        }
    }

    /// Writes each option set under its name, in its JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in storage { try container.encode(value, forKey: Key(name)) }
    }
}
