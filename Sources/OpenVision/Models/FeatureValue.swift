/// A named value a model takes or gives (Core ML's `MLFeatureValue`): a number, a string, a multi-array, an image or a
/// dictionary of scores. `VisionModel.prediction(features:)` takes and returns them by feature name.
public enum FeatureValue: Sendable {
    /// A double (Core ML's `Double` feature; a regressor's output).
    case double(Double)
    /// A 64-bit integer (Core ML's `Int64` feature; an integer class label).
    case int64(Int64)
    /// A string (a class label, a text input).
    case string(String)
    /// A multi-array in its own element type (a tensor).
    case multiArray(MultiArray)
    /// An image: as an input, fitted to the model's image input as its preprocessing says; as an output, the pixels
    /// Core ML makes of an image output (0...255, no scale or bias).
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
        /// An image (`FeatureValue.image`).
        case image
        /// A multi-array (`FeatureValue.multiArray`).
        case multiArray
        /// A double.
        case double
        /// A 64-bit integer.
        case int64
        /// A string.
        case string
        /// Scores by string or integer key.
        case dictionary
        /// A sequence (Core ML's; declared by some models, not run here: `prediction(features:)` refuses it).
        case sequence
        /// A model state (Core ML's stateful models; not run here).
        case state
        /// A feature type Core ML itself calls invalid.
        case invalid
    }

    /// The feature's name, as the model declares it (Core ML's feature name, or the ONNX tensor's).
    public var name: String
    /// What kind of value it is.
    public var kind: Kind
    /// Multi-arrays: the dimensions (nil where the model takes any size); images: [height, width].
    public var shape: [Int?]
    /// Multi-arrays: the element type ("float32", "float64", "int32", "int64", "float16", "int8", "string", …);
    /// dictionaries: the key type ("string" or "int64"); images: the colour space ("RGB", "BGR", "GRAYSCALE").
    public var dataType: String?
    /// Whether the model runs without it (a detector pipeline's thresholds).
    public var isOptional: Bool

    /// A description with these fields (for backends of your own and tests).
    public init(name: String, kind: Kind, shape: [Int?] = [], dataType: String? = nil, isOptional: Bool = false) {
        self.name = name
        self.kind = kind
        self.shape = shape
        self.dataType = dataType
        self.isOptional = isOptional
    }
}
