/// Core ML's `MLFeatureType`: what kind of value a model input or output holds.
public enum MLFeatureType: Int, Sendable, CustomStringConvertible {
    case invalid = 0
    case int64 = 1
    case double = 2
    case string = 3
    case image = 4
    case multiArray = 5
    case dictionary = 6
    case sequence = 7
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
    case double = 65600
    case float32 = 65568
    case float16 = 65552
    case int32 = 131104

    public static let float64 = MLMultiArrayDataType.double
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
