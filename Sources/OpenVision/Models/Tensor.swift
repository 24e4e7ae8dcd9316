/// A dense Float32 tensor: a model input or output.
public struct Tensor: Sendable, Hashable {
    /// The model's name for it.
    public var name: String
    /// Dimensions, outermost first (e.g. [1, 84, 8400]).
    public var shape: [Int]
    /// Row-major values; `scalars.count` is the product of `shape`.
    public var scalars: [Float]

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(name: String, shape: [Int], scalars: [Float]) {
        self.name = name
        self.shape = shape
        self.scalars = scalars
    }

    /// Number of elements.
    public var count: Int { scalars.count }

    /// The shape without leading 1s (e.g. [1, 1000] → [1000]).
    var squeezedShape: [Int] {
        let s = Array(shape.drop { $0 == 1 })
        return s.isEmpty ? [shape.last ?? 1] : s
    }
}

/// What a backend says about one of a model's inputs or outputs.
public struct TensorDescription: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The model's name for it.
    public var name: String
    /// Dimensions; nil for a dynamic dimension.
    public var shape: [Int?]
    /// ONNX element type name ("float32", "int64", ...).
    public var elementType: String

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(name: String, shape: [Int?], elementType: String = "float32") {
        self.name = name
        self.shape = shape
        self.elementType = elementType
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        "\(name) [\(shape.map { $0.map(String.init) ?? "?" }.joined(separator: "×"))] \(elementType)"
    }
}
