import Foundation
import OpenVision

/// Core ML's `MLFeatureValue`: an image, a multi-array, a string, an integer, a double or a dictionary of scores.
open class MLFeatureValue: CustomStringConvertible {
    public let type: MLFeatureType
    public let multiArrayValue: MLMultiArray?
    /// The image (Core ML's `CVPixelBuffer` image feature; here an OpenVision image).
    public let imageBufferValue: VisionImage?
    public let stringValue: String
    public let int64Value: Int64
    public let doubleValue: Double
    /// Label → score (Core ML's `[AnyHashable: NSNumber]`; keys are `String` or `Int64`).
    public let dictionaryValue: [AnyHashable: NSNumber]
    /// True for a missing optional value (`init(undefined:)`).
    public let isUndefined: Bool

    private init(type: MLFeatureType, multiArray: MLMultiArray? = nil, image: VisionImage? = nil, string: String = "",
                 int64: Int64 = 0, double: Double = 0, dictionary: [AnyHashable: NSNumber] = [:], undefined: Bool = false) {
        self.type = type
        multiArrayValue = multiArray
        imageBufferValue = image
        stringValue = string
        int64Value = int64
        doubleValue = double
        dictionaryValue = dictionary
        isUndefined = undefined
    }

    public convenience init(multiArray: MLMultiArray) { self.init(type: .multiArray, multiArray: multiArray) }
    public convenience init(pixelBuffer: VisionImage) { self.init(type: .image, image: pixelBuffer) }
    public convenience init(string: String) { self.init(type: .string, string: string) }
    public convenience init(int64: Int64) { self.init(type: .int64, int64: int64, double: Double(int64)) }
    public convenience init(double: Double) { self.init(type: .double, double: double) }
    /// A missing value of `type`, for optional inputs.
    public convenience init(undefined type: MLFeatureType) { self.init(type: type, undefined: true) }

    /// A dictionary of scores; throws unless every key is a `String` or an integer (Core ML's rule).
    public convenience init(dictionary: [AnyHashable: NSNumber]) throws {
        var converted: [AnyHashable: NSNumber] = [:]
        for (key, value) in dictionary {
            if let s = key.base as? String { converted[s] = value }
            else if let i = key.base as? Int { converted[Int64(i)] = value }
            else if let i = key.base as? Int64 { converted[i] = value }
            else { throw MLModelError.generic("MLFeatureValue(dictionary:): key \(key) is neither a String nor an integer") }
        }
        self.init(type: .dictionary, dictionary: converted)
    }

    /// An image read from a file (Core ML's `init(imageAt:constraint:options:)` without resizing).
    public convenience init(imageAt url: URL) throws {
        self.init(type: .image, image: try VisionImage(contentsOf: url))
    }

    /// A feature value from what app code puts in `MLDictionaryFeatureProvider(dictionary:)`: an `MLFeatureValue`,
    /// `MLMultiArray`, image, `String`, integer, floating-point number or score dictionary; nil for anything else.
    static func from(_ any: Any) -> MLFeatureValue? {
        switch any {
        case let v as MLFeatureValue: return v
        case let a as MLMultiArray: return MLFeatureValue(multiArray: a)
        case let i as VisionImage: return MLFeatureValue(pixelBuffer: i)
        case let s as String: return MLFeatureValue(string: s)
        case let i as Int: return MLFeatureValue(int64: Int64(i))
        case let i as Int64: return MLFeatureValue(int64: i)
        case let i as Int32: return MLFeatureValue(int64: Int64(i))
        case let d as Double: return MLFeatureValue(double: d)
        case let f as Float: return MLFeatureValue(double: Double(f))
        case let n as NSNumber: return MLFeatureValue(double: n.doubleValue)
        case let d as [String: Double]: return try? MLFeatureValue(dictionary: d.mapValues { NSNumber(value: $0) })
        case let d as [AnyHashable: NSNumber]: return try? MLFeatureValue(dictionary: d)
        default: return nil
        }
    }

    public var description: String {
        switch type {
        case .multiArray: "MultiArray : \(multiArrayValue?.shape.map(\.stringValue).joined(separator: " x ") ?? "")"
        case .image: "Image : \(imageBufferValue.map { "\($0.width) x \($0.height)" } ?? "")"
        case .string: "String : \(stringValue)"
        case .int64: "Int64 : \(int64Value)"
        case .double: "Double : \(doubleValue)"
        case .dictionary: "Dictionary : \(dictionaryValue.count) entries"
        default: "\(type)"
        }
    }
}
