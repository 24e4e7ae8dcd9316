import Foundation

/// Core ML's `MLFeatureProvider`: named feature values.
public protocol MLFeatureProvider {
    var featureNames: Set<String> { get }
    func featureValue(for featureName: String) -> MLFeatureValue?
}

/// Core ML's `MLDictionaryFeatureProvider`: values as app code gives them (`MLFeatureValue`, `MLMultiArray`, an
/// image, `String`, numbers, score dictionaries); throws for a value of another kind, naming its key.
open class MLDictionaryFeatureProvider: MLFeatureProvider, Sequence {
    public let dictionary: [String: MLFeatureValue]

    public init(dictionary: [String: Any]) throws {
        var values: [String: MLFeatureValue] = [:]
        for (key, any) in dictionary {
            guard let value = MLFeatureValue.from(any) else {
                throw MLModelError.generic("MLDictionaryFeatureProvider: the value for '\(key)' (\(type(of: any))) is not a feature value")
            }
            values[key] = value
        }
        self.dictionary = values
    }

    public var featureNames: Set<String> { Set(dictionary.keys) }
    public func featureValue(for featureName: String) -> MLFeatureValue? { dictionary[featureName] }
    public subscript(featureName: String) -> MLFeatureValue? { dictionary[featureName] }
    public func makeIterator() -> Dictionary<String, MLFeatureValue>.Iterator { dictionary.makeIterator() }
}

/// Core ML's `MLBatchProvider`: several inputs (or outputs) in order.
public protocol MLBatchProvider {
    var count: Int { get }
    func features(at index: Int) -> MLFeatureProvider
}

/// Core ML's `MLArrayBatchProvider`.
open class MLArrayBatchProvider: MLBatchProvider {
    public let array: [MLFeatureProvider]
    public init(array: [MLFeatureProvider]) { self.array = array }
    /// One provider per element of each named list (the lists of equal length).
    public init(dictionary: [String: [Any]]) throws {
        let counts = Set(dictionary.values.map(\.count))
        guard counts.count <= 1 else { throw MLModelError.generic("MLArrayBatchProvider: the lists differ in length") }
        let n = counts.first ?? 0
        array = try (0..<n).map { i in try MLDictionaryFeatureProvider(dictionary: dictionary.mapValues { $0[i] }) }
    }
    public var count: Int { array.count }
    public func features(at index: Int) -> MLFeatureProvider { array[index] }
}

/// Core ML's `MLPredictionOptions` (all predictions run on the CPU here).
open class MLPredictionOptions {
    public var usesCPUOnly = false
    public init() {}
}
