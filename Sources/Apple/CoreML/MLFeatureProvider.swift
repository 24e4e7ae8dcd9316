import CoreVideo
import Foundation
import OpenVision

/// Core ML's `MLFeatureProvider`: named feature values.
public protocol MLFeatureProvider {
    /// The names of the values provided.
    var featureNames: Set<String> { get }
    /// The value named `featureName`; nil when there is none.
    func featureValue(for featureName: String) -> MLFeatureValue?
}

/// Core ML's `MLDictionaryFeatureProvider`: values as app code gives them (`MLFeatureValue`, `MLMultiArray`, an
/// image, `String`, numbers, score dictionaries); throws for a value of another kind, naming its key.
open class MLDictionaryFeatureProvider: MLFeatureProvider, Sequence {
    /// The values by name.
    public let dictionary: [String: MLFeatureValue]

    /// Values from `dictionary`; throws `MLModelError.generic` naming a key whose value is not a feature value.
    public init(dictionary: [String: Any]) throws {
        var values: [String: MLFeatureValue] = [:]
        for (key, any) in dictionary {
            guard let value = MLFeatureValue.from(any) else {
                throw MLModelError.generic(
                    "MLDictionaryFeatureProvider: the value for '\(key)' (\(type(of: any))) is not a feature value")
            }
            values[key] = value
        }
        self.dictionary = values
    }

    /// The dictionary's keys.
    public var featureNames: Set<String> { Set(dictionary.keys) }
    /// The value named `featureName`; nil when there is none.
    public func featureValue(for featureName: String) -> MLFeatureValue? { dictionary[featureName] }
    /// The value named `featureName`; nil when there is none.
    public subscript(featureName: String) -> MLFeatureValue? { dictionary[featureName] }
    /// Iterates the (name, value) pairs, in no particular order.
    public func makeIterator() -> Dictionary<String, MLFeatureValue>.Iterator { dictionary.makeIterator() }
}

extension MLFeatureValue {
    /// A feature value from what app code puts in `MLDictionaryFeatureProvider(dictionary:)`: an `MLFeatureValue`,
    /// `MLMultiArray`, `CVPixelBuffer` (or an OpenVision image), `String`, integer, floating-point number or score dictionary; nil for anything else.
    static func from(_ any: Any) -> MLFeatureValue? {
        switch any {
        case let v as MLFeatureValue: return v
        case let a as MLMultiArray: return MLFeatureValue(multiArray: a)
        case let b as CVPixelBuffer: return MLFeatureValue(pixelBuffer: b)
        case let i as VisionImage: return MLFeatureValue(pixelBuffer: CVPixelBuffer(visionImage: i))
        case let s as String: return MLFeatureValue(string: s)
        case let i as Int: return MLFeatureValue(int64: Int64(i))
        case let i as Int64: return MLFeatureValue(int64: i)
        case let i as Int32: return MLFeatureValue(int64: Int64(i))
        case let d as Double: return MLFeatureValue(double: d)
        case let f as Float: return MLFeatureValue(double: Double(f))
        case let n as NSNumber: return MLFeatureValue(double: n.doubleValue)
        case let d as [String: Double]: return try? MLFeatureValue(dictionary: d)
        case let d as [AnyHashable: NSNumber]: return try? MLFeatureValue(dictionary: d.mapValues(\.doubleValue))
        default: return nil
        }
    }
}
