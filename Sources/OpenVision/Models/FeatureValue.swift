/// A named value a model takes or gives (Core ML's `MLFeatureValue`): a number, a string, a multi-array, an image or a
/// dictionary of scores. `VisionModel.prediction(features:)` takes and returns them by feature name.
public enum FeatureValue: Sendable {
    case double(Double)
    case int64(Int64)
    case string(String)
    case multiArray(MultiArray)
    case image(VisionImage)
    /// Scores by string key (a classifier's probabilities by label; a dictionary input).
    case stringDictionary([String: Double])
    /// Scores by integer key.
    case int64Dictionary([Int64: Double])

    /// The kind of value, as `FeatureDescription.Kind` names it.
    public var kind: FeatureDescription.Kind {
        switch self {
        case .double: .double
        case .int64: .int64
        case .string: .string
        case .multiArray: .multiArray
        case .image: .image
        case .stringDictionary, .int64Dictionary: .dictionary
        }
    }
}

/// What a model input or output is (Core ML's `MLFeatureDescription`): its name, kind and, for multi-arrays, shape and
/// element type. `VisionModel.inputFeatures` / `outputFeatures` list them: a Core ML model's as its file declares
/// them, another model's tensors as multi-arrays (whose first input also takes an image when it is the only one).
public struct FeatureDescription: Sendable, Hashable, Codable {
    /// Core ML's feature types.
    public enum Kind: String, Sendable, Hashable, Codable {
        case image, multiArray, double, int64, string, dictionary, sequence, state, invalid
    }

    public var name: String
    public var kind: Kind
    /// Multi-arrays: the dimensions (nil where the model takes any size); images: [height, width].
    public var shape: [Int?]
    /// Multi-arrays: the element type ("float32", "float64", "int32", "int64", "float16", "int8", "string", …);
    /// dictionaries: the key type ("string" or "int64"); images: the colour space ("RGB", "BGR", "GRAYSCALE").
    public var dataType: String?
    /// Whether the model runs without it (a detector pipeline's thresholds).
    public var isOptional: Bool

    public init(name: String, kind: Kind, shape: [Int?] = [], dataType: String? = nil, isOptional: Bool = false) {
        self.name = name
        self.kind = kind
        self.shape = shape
        self.dataType = dataType
        self.isOptional = isOptional
    }
}
