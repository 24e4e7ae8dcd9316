/// Core ML's `MLFeatureProvider`: named feature values.
public protocol MLFeatureProvider {
    var featureNames: Set<String> { get }
    func featureValue(for featureName: String) -> MLFeatureValue?
}

/// Core ML's `MLDictionaryFeatureProvider`.
open class MLDictionaryFeatureProvider: MLFeatureProvider {
    public let dictionary: [String: MLFeatureValue]
    public init(dictionary: [String: MLFeatureValue]) throws { self.dictionary = dictionary }
    public var featureNames: Set<String> { Set(dictionary.keys) }
    public func featureValue(for featureName: String) -> MLFeatureValue? { dictionary[featureName] }
    public subscript(featureName: String) -> MLFeatureValue? { dictionary[featureName] }
}
