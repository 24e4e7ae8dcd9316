import Foundation
import OpenVision

/// Core ML's `MLModelDescription`: the model's inputs and outputs by name, its classifier outputs and labels, and
/// its metadata. For a Core ML file these are the file's own; for other formats, multi-arrays named by the model.
open class MLModelDescription {
    /// The model's inputs, by name.
    public let inputDescriptionsByName: [String: MLFeatureDescription]
    /// The model's outputs, by name.
    public let outputDescriptionsByName: [String: MLFeatureDescription]
    /// A classifier's label output (`classLabel`); nil for other models.
    public let predictedFeatureName: String?
    /// A classifier's label → probability output (`classLabelProbs`); nil for other models.
    public let predictedProbabilitiesName: String?
    /// The classifier's or detector's labels (`String`s), nil when the model has none.
    public let classLabels: [Any]?
    /// Author, description, license, version and the creator's own keys (`[String: String]` under
    /// `.creatorDefinedKey`).
    public let metadata: [MLModelMetadataKey: Any]

    init(_ d: ModelDescription) {
        if let c = d.coreML {
            inputDescriptionsByName = Dictionary(
                c.inputs.map { ($0.name, MLFeatureDescription($0)) }, uniquingKeysWith: { a, _ in a })
            outputDescriptionsByName = Dictionary(
                c.outputs.map { ($0.name, MLFeatureDescription($0)) }, uniquingKeysWith: { a, _ in a })
            predictedFeatureName = c.predictedFeatureName.isEmpty ? nil : c.predictedFeatureName
            predictedProbabilitiesName = c.predictedProbabilitiesName.isEmpty ? nil : c.predictedProbabilitiesName
            metadata = [
                .author: c.metadata.author, .description: c.metadata.shortDescription, .license: c.metadata.license,
                .versionString: c.metadata.versionString, .creatorDefinedKey: c.metadata.userDefined,
            ]
        } else {
            inputDescriptionsByName = Dictionary(
                d.inputs.map { ($0.name, MLFeatureDescription($0)) }, uniquingKeysWith: { a, _ in a })
            outputDescriptionsByName = Dictionary(
                d.outputs.map { ($0.name, MLFeatureDescription($0)) }, uniquingKeysWith: { a, _ in a })
            predictedFeatureName = nil
            predictedProbabilitiesName = nil
            metadata = [.creatorDefinedKey: d.metadata]
        }
        classLabels = d.labels.isEmpty ? nil : d.labels
    }
}

/// Core ML's `MLModelMetadataKey`.
public struct MLModelMetadataKey: RawRepresentable, Hashable, Sendable {
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The model's author.
    public static let author = MLModelMetadataKey(rawValue: "MLModelAuthorKey")
    /// The model's description.
    public static let description = MLModelMetadataKey(rawValue: "MLModelDescriptionKey")
    /// The model's licence.
    public static let license = MLModelMetadataKey(rawValue: "MLModelLicenseKey")
    /// The model's version string.
    public static let versionString = MLModelMetadataKey(rawValue: "MLModelVersionStringKey")
    /// The creator-defined keys and values (a `[String: String]`).
    public static let creatorDefinedKey = MLModelMetadataKey(rawValue: "MLModelCreatorDefinedKey")
}
