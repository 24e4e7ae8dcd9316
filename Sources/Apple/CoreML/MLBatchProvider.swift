/// Core ML's `MLBatchProvider`: feature providers by index.
public protocol MLBatchProvider {
    /// The number of feature providers.
    var count: Int { get }
    /// The provider at `index`, 0..<`count`.
    func features(at index: Int) -> MLFeatureProvider
}

/// Core ML's `MLArrayBatchProvider`: an array of feature providers.
open class MLArrayBatchProvider: MLBatchProvider {
    /// The providers, in order.
    public let array: [MLFeatureProvider]
    /// A batch of `array`'s providers.
    public init(array: [MLFeatureProvider]) { self.array = array }
    /// Providers of each dictionary's values, by name (every array holds one value per provider). The values are what
    /// `MLDictionaryFeatureProvider(dictionary:)` takes — `MLFeatureValue`, `MLMultiArray`, image, `String`, integer,
    /// floating-point number or score dictionary; anything else is `MLModelError.featureType` naming its key and index.
    public convenience init(dictionary: [String: [Any]]) throws {
        let count = dictionary.values.first?.count ?? 0
        guard dictionary.values.allSatisfy({ $0.count == count }) else {
            throw MLModelError.generic("MLArrayBatchProvider(dictionary:): the arrays differ in length")
        }
        var providers: [MLFeatureProvider] = []
        for i in 0..<count {
            var features: [String: MLFeatureValue] = [:]
            for (name, values) in dictionary {
                guard let value = MLFeatureValue.from(values[i]) else {
                    throw MLModelError.featureType("'\(name)'[\(i)] is a \(type(of: values[i])), not a feature value")
                }
                features[name] = value
            }
            providers.append(try MLDictionaryFeatureProvider(dictionary: features))
        }
        self.init(array: providers)
    }
    /// The number of providers.
    public var count: Int { array.count }
    /// The provider at `index`, 0..<`count` (out of range traps, as an array).
    public func features(at index: Int) -> MLFeatureProvider { array[index] }
}
