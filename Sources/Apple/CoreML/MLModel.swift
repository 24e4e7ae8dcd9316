import Foundation
import OpenVision

/// Core ML's `MLModel` on Linux: a model file — Apple's `.mlmodel`, `.mlpackage` or `.mlmodelc` (converted to ONNX
/// once and cached), an `.onnx`, `.tflite` or Darknet `.cfg` — loaded once through OpenVision (`VisionModel`), to
/// hand to `VNCoreMLModel(for:)`, to run with `prediction(from:)`, or to wrap in an Xcode-style generated class.
open class MLModel {
    /// The OpenVision model this wraps.
    public let visionModel: VisionModel
    /// The configuration the model was loaded with.
    public let configuration: MLModelConfiguration
    /// An updated model's own file (its `Model` message), which `write(to:)` saves; nil for a model loaded from a
    /// file, which `write(to:)` reads again.
    var specification: [UInt8]?
    /// The model's description (inputs, outputs, labels as Core ML's `classLabels`).
    public var modelDescription: MLModelDescription { MLModelDescription(visionModel.modelDescription) }

    /// Loads the model at `url`. Throws `MLModelError.io` for a missing or unreadable file and `.generic` for a
    /// model that does not load (OpenVision's error as the message).
    public init(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) throws {
        var c = VisionModel.Configuration()
        c.threads = configuration.threads
        do {
            self.visionModel = try VisionModel(contentsOf: url, configuration: c)
        } catch {
            throw MLModelError(error)
        }
        self.configuration = configuration
    }

    /// Wraps an already loaded OpenVision model.
    public init(visionModel: VisionModel, configuration: MLModelConfiguration = MLModelConfiguration()) {
        self.visionModel = visionModel
        self.configuration = configuration
    }

    /// Loads the model at `url` on a background queue and calls `handler` there (Core ML's `load(contentsOf:…)`).
    open class func load(
        contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration(),
        completionHandler handler: @escaping (Result<MLModel, Error>) -> Void
    ) {
        DispatchQueue.global().async {
            handler(Result { try MLModel(contentsOf: url, configuration: configuration) })
        }
    }

    /// Loads the model at `url` (Core ML's `async load(contentsOf:configuration:)`).
    open class func load(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) async throws
        -> MLModel
    {
        try MLModel(contentsOf: url, configuration: configuration)
    }

    /// Compiles a `.mlmodel` or `.mlpackage` into an `.mlmodelc` folder in a new temporary folder and returns its URL
    /// (Core ML's `compileModel(at:)`; OpenVision's layout, `VisionModel.compileCoreMLModel(at:to:)`).
    open class func compileModel(at url: URL) throws -> URL {
        do { return try VisionModel.compileCoreMLModel(at: url) } catch { throw MLModelError(error) }
    }

    /// Core ML's `async compileModel(at:)`.
    open class func compileModel(at url: URL) async throws -> URL {
        do { return try VisionModel.compileCoreMLModel(at: url) } catch { throw MLModelError(error) }
    }

    /// Runs the model on `input` (Core ML's `prediction(from:)`).
    public func prediction(from input: MLFeatureProvider) throws -> MLFeatureProvider {
        try prediction(from: input, options: MLPredictionOptions())
    }

    /// Runs the model on `input`'s features by the model's input names (`VisionModel.prediction(features:)`): images,
    /// multi-arrays, numbers, strings and dictionaries as the model declares its inputs (a one-input model also takes
    /// the provider's only image; a Core ML detector's optional `iouThreshold` / `confidenceThreshold` their defaults
    /// when absent). Returns the outputs as Core ML gives them: a classifier's label (string, or int64 for integer
    /// labels) and probabilities (a dictionary by label), numbers, strings, images (an image output's values as 0...255
    /// pixels, clamped and rounded; 8-bit gray for grayscale), multi-arrays in their data types (int64 arrays as
    /// int32). Throws `MLModelError.featureType` for a missing or mistyped input and `.generic` for the model's errors.
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) throws -> MLFeatureProvider {
        let declared = visionModel.inputFeatures
        let required = declared.filter { !$0.isOptional }
        var features: [String: FeatureValue] = [:]
        for feature in declared {
            var value = input.featureValue(for: feature.name)
            if value == nil, required.count == 1, feature.name == required[0].name {
                // A one-input model: the provider's only image, whatever its name.
                let images = input.featureNames.compactMap { input.featureValue(for: $0) }.filter {
                    $0.imageBufferValue != nil
                }
                if images.count == 1 { value = images[0] }
            }
            guard let value, !value.isUndefined else {
                if feature.isOptional { continue }
                throw MLModelError.featureType(
                    "the input has no feature '\(feature.name)' (it has \(input.featureNames.sorted().joined(separator: ", ")))"
                )
            }
            features[feature.name] = try value.featureValue(
                for: feature, imageInputs: declared.filter { $0.kind == .image }.count,
                inputs: declared.count)
        }
        let outputs: [String: FeatureValue]
        do {
            outputs = try visionModel.prediction(features: features)
        } catch {
            throw MLModelError(error)
        }
        var result: [String: MLFeatureValue] = [:]
        let imageOutputs = visionModel.modelDescription.coreML?.imageOutputs ?? [:]
        for (name, value) in outputs {
            result[name] = try MLFeatureValue(value, name: name, grayImage: imageOutputs[name]?.channels == 1)
        }
        return try MLDictionaryFeatureProvider(dictionary: result)
    }

    /// `prediction(from:)`, asynchronously (Core ML's `async` form).
    public func prediction(from input: MLFeatureProvider) async throws -> MLFeatureProvider {
        try predictSync(input, MLPredictionOptions())
    }

    /// `prediction(from:options:)`, asynchronously.
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) async throws
        -> MLFeatureProvider
    {
        try predictSync(input, options)
    }

    private func predictSync(_ input: MLFeatureProvider, _ options: MLPredictionOptions) throws -> MLFeatureProvider {
        try prediction(from: input, options: options)
    }

    /// Runs the model on each provider of `inputs` in order (Core ML's `predictions(fromBatch:)`).
    public func predictions(fromBatch inputs: MLBatchProvider) throws -> MLBatchProvider {
        try predictions(from: inputs, options: MLPredictionOptions())
    }

    /// Runs the model on each provider of `inputs` in order (Core ML's `predictions(from:options:)`).
    public func predictions(from inputs: MLBatchProvider, options: MLPredictionOptions = MLPredictionOptions()) throws
        -> MLBatchProvider
    {
        var outputs: [MLFeatureProvider] = []
        outputs.reserveCapacity(inputs.count)
        for i in 0..<inputs.count { outputs.append(try prediction(from: inputs.features(at: i), options: options)) }
        return MLArrayBatchProvider(array: outputs)
    }

    /// Throws `MLModelError.featureType` unless the model has every one of `inputs` and `outputs` (by name): the check
    /// an Xcode-style generated class (`className`) makes when it loads a model, so the wrong model file is an error
    /// naming both, not a crash at the first prediction.
    public func requireFeatures(inputs: [String], outputs: [String], for className: String) throws {
        let description = visionModel.modelDescription
        let has = (
            inputs: description.coreML?.inputs.map(\.name) ?? description.inputs.map(\.name),
            outputs: description.coreML?.outputs.map(\.name) ?? description.outputs.map(\.name)
        )
        let missing = inputs.filter { !has.inputs.contains($0) } + outputs.filter { !has.outputs.contains($0) }
        guard missing.isEmpty else {
            throw MLModelError.featureType(
                "\(className) was generated for a model with inputs \(inputs.joined(separator: ", ")) and outputs "
                    + "\(outputs.joined(separator: ", ")); \(visionModel.url.lastPathComponent) has inputs "
                    + "\(has.inputs.joined(separator: ", ")) and outputs \(has.outputs.joined(separator: ", "))")
        }
    }

    /// Throws `MLModelError.featureType` unless `provider` has every one of `outputs`: a generated class's check before
    /// its typed output properties read them.
    public static func requireOutputs(_ outputs: [String], in provider: MLFeatureProvider, for className: String) throws
    {
        if let missing = outputs.first(where: { provider.featureValue(for: $0) == nil }) {
            throw MLModelError.featureType(
                "\(className): the prediction has no output '\(missing)' "
                    + "(it has \(provider.featureNames.sorted().joined(separator: ", ")))")
        }
    }
}

/// Core ML's errors as thrown by this module (Core ML's `MLModelError` codes `generic`, `featureType`, `io`).
public enum MLModelError: Error, CustomStringConvertible {
    /// Any other failure, with its message.
    case generic(String)
    /// An input or output of the wrong type or name, or a model of another kind than expected.
    case featureType(String)
    /// A model or image file that cannot be read.
    case io(String)

    /// The value as short text, for logs.
    public var description: String {
        switch self {
        case .generic(let m): m
        case .featureType(let m): "feature type: \(m)"
        case .io(let m): "io: \(m)"
        }
    }

    /// OpenVision's error as Core ML's: unreadable files are `io`, everything else `generic`.
    init(_ error: Error) {
        guard let error = error as? VisionError else {
            self = .generic("\(error)")
            return
        }
        switch error.code {
        case .fileNotFound, .ioError: self = .io(error.message)
        default: self = .generic(error.message)
        }
    }
}
