/// Core ML's `MLFeatureType`: what kind of value a model input or output holds.
public enum MLFeatureType: Int, Sendable, CustomStringConvertible {
    /// No value (an undefined feature).
    case invalid = 0
    /// A 64-bit integer.
    case int64 = 1
    /// A double.
    case double = 2
    /// A string.
    case string = 3
    /// An image (a pixel buffer).
    case image = 4
    /// A multi-dimensional array.
    case multiArray = 5
    /// A dictionary of scores by string or integer key.
    case dictionary = 6
    /// A sequence of strings or integers.
    case sequence = 7
    /// A model state (stateful models).
    case state = 8

    /// The value as short text, for logs.
    public var description: String {
        switch self {
        case .invalid: "Invalid"
        case .int64: "Int64"
        case .double: "Double"
        case .string: "String"
        case .image: "Image"
        case .multiArray: "MultiArray"
        case .dictionary: "Dictionary"
        case .sequence: "Sequence"
        case .state: "State"
        }
    }
}

/// Core ML's `MLMultiArrayDataType` (Apple's raw values).
public enum MLMultiArrayDataType: Int, Sendable {
    /// 64-bit floating point.
    case double = 65600
    /// 32-bit floating point.
    case float32 = 65568
    /// 16-bit floating point.
    case float16 = 65552
    /// 32-bit signed integer.
    case int32 = 131104

    /// Another name for `.double`, as Core ML's.
    public static let float64 = MLMultiArrayDataType.double
    /// Another name for `.float32`, as Core ML's.
    public static let float = MLMultiArrayDataType.float32

    init(coreML name: String?) {
        switch name?.lowercased() {
        case "float16"?: self = .float16
        case "double"?, "float64"?: self = .double
        case "int32"?: self = .int32
        default: self = .float32
        }
    }
}
