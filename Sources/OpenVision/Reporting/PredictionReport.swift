import Foundation

/// What `openvision predict` reports: the model and each output by name (`outputs`), as JSON or text lines.
///
/// Each output is an object with its `type`: a number `{"type": "double", "value": 1.5}` (or `"int64"`), a string
/// `{"type": "string", "value": "cat"}`, a dictionary `{"type": "dictionary", "value": {"cat": 0.9, …}}`, a
/// multi-array `{"type": "multiArray", "shape": [1, 21], "dataType": "float32", "values": […]}` (`values` only up to
/// `AnalysisReport.maximumReportedValues` elements) and an image `{"type": "image", "width": …, "height": …}`; an
/// array or image written to a file has its path under `file`.
public struct PredictionReport: Sendable, Encodable {
    /// One output.
    public struct Output: Sendable, Encodable {
        /// "double", "int64", "string", "dictionary", "multiArray" or "image".
        public var type: String
        /// A number's, string's or dictionary's value; nil for multi-arrays and images.
        public var value: Value?
        /// A multi-array's dimensions, outermost first.
        public var shape: [Int]?
        /// A multi-array's element type ("float32", "float64", "int32", "int64", "string").
        public var dataType: String?
        /// A multi-array's elements, row-major, when there are at most `AnalysisReport.maximumReportedValues`.
        public var values: [Value]?
        /// An image's width in pixels.
        public var width: Int?
        /// An image's height in pixels.
        public var height: Int?
        /// The file the output was written to (`--out DIR`: `NAME.npy`, `NAME.png`), if any.
        public var file: String?
    }

    /// A number, string or dictionary of numbers, as JSON has them.
    public enum Value: Sendable, Encodable {
        /// A double; NaN and infinities as the strings "nan", "inf", "-inf" (JSON has no such numbers).
        case double(Double)
        /// An integer.
        case int64(Int64)
        /// A string.
        case string(String)
        /// Scores by key.
        case dictionary([String: Double])

        /// Encodes the bare JSON value (a number, string or object), not a tagged enum.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .double(let d): try d.isFinite ? c.encode(d) : c.encode(d.isNaN ? "nan" : d > 0 ? "inf" : "-inf")
            case .int64(let i): try c.encode(i)
            case .string(let s): try c.encode(s)
            case .dictionary(let d): try c.encode(d.mapValues { Value.double($0) })
            }
        }
    }

    /// The model file.
    public var model: String
    /// Every output by its name.
    public var outputs: [String: Output]
    /// The model's output names in its order (for the text form; not encoded).
    public var order: [String] = []

    private enum CodingKeys: String, CodingKey { case model, outputs }

    /// The report of `values` (a prediction's outputs), listed in `order`; `files` the paths written per output.
    public init(model: String, values: [String: FeatureValue], order: [String], files: [String: String] = [:]) {
        self.model = model
        self.order = order.filter { values[$0] != nil } + values.keys.filter { !order.contains($0) }.sorted()
        var outputs: [String: Output] = [:]
        for (name, value) in values {
            var o: Output
            switch value {
            case .double(let d): o = Output(type: "double", value: .double(d))
            case .int64(let i): o = Output(type: "int64", value: .int64(i))
            case .string(let s): o = Output(type: "string", value: .string(s))
            case .stringDictionary(let d): o = Output(type: "dictionary", value: .dictionary(d))
            case .int64Dictionary(let d):
                o = Output(
                    type: "dictionary",
                    value: .dictionary(Dictionary(uniqueKeysWithValues: d.map { (String($0.key), $0.value) })))
            case .image(let image): o = Output(type: "image", width: image.width, height: image.height)
            case .multiArray(let array):
                o = Output(type: "multiArray", shape: array.shape, dataType: array.dataType)
                if array.count <= AnalysisReport.maximumReportedValues {
                    switch array.elements {
                    case .string(let s): o.values = s.map { .string($0) }
                    case .int32(let v): o.values = v.map { .int64(Int64($0)) }
                    case .int64(let v): o.values = v.map { .int64($0) }
                    default: o.values = array.doubles?.map { .double($0) }
                    }
                }
            }
            o.file = files[name]
            outputs[name] = o
        }
        self.outputs = outputs
    }

    /// The JSON (sorted keys, slashes unescaped; pretty or one line).
    public func jsonData(pretty: Bool = true) throws(VisionError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch {
            throw VisionError(.internalError, "encoding the prediction: \(error)")
        }
    }

    /// One line per output: `name: value`, a dictionary's entries by decreasing value, an array's shape and type.
    public var summary: String {
        var lines = ["model \(model)"]
        for name in order {
            guard let o = outputs[name] else { continue }
            var line = "  \(name): "
            switch o.value {
            case .double(let d)?: line += "\(d)"
            case .int64(let i)?: line += "\(i)"
            case .string(let s)?: line += s
            case .dictionary(let d)?:
                line +=
                    d.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
                    .map { "\($0.key) \(String(format: "%.4g", $0.value))" }.joined(separator: ", ")
                    + (d.count > 5 ? ", …" : "")
            case nil where o.type == "image": line += "image \(o.width ?? 0) × \(o.height ?? 0)"
            case nil: line += "\(o.dataType ?? "") [\((o.shape ?? []).map(String.init).joined(separator: " × "))]"
            }
            if let file = o.file { line += " → \(file)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
