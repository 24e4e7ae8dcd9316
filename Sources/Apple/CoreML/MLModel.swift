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
    open class func load(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration(),
                         completionHandler handler: @escaping (Result<MLModel, Error>) -> Void) {
        DispatchQueue.global().async {
            handler(Result { try MLModel(contentsOf: url, configuration: configuration) })
        }
    }

    /// Loads the model at `url` (Core ML's `async load(contentsOf:configuration:)`).
    open class func load(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> MLModel {
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

    /// Runs the model on `input`'s features by the model's input names: each tensor input (an image feature for a
    /// one-input model, or a multi-array of the input's shape), and a Core ML detector's optional `iouThreshold` /
    /// `confidenceThreshold` (doubles; their defaults when absent).
    /// Returns the outputs as Core ML gives them: a classifier's label (string, or int64 for integer labels) and
    /// probabilities (a dictionary by label), an image output an image (its values as 0...255 pixels, clamped and
    /// rounded; 8-bit gray for grayscale), every other output a multi-array. Throws `MLModelError.featureType`
    /// for a missing or mistyped input and `.generic` for the model's errors.
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) throws -> MLFeatureProvider {
        let description = visionModel.modelDescription
        let coreML = description.coreML
        let imageName = coreML?.inputs.first(where: { $0.type == "image" })?.name ?? description.inputs.first?.name ?? "image"
        // Each tensor input by its name (a one-input model by its image input's name too); a model of another format
        // (ONNX, …) with one input also takes a provider's only image.
        var values: [MLFeatureValue] = []
        for declared in description.inputs {
            let single = description.inputs.count == 1
            var value = input.featureValue(for: declared.name) ?? (single ? input.featureValue(for: imageName) : nil)
            if value == nil, coreML == nil, single {
                let images = input.featureNames.compactMap { input.featureValue(for: $0) }.filter { $0.imageBufferValue != nil }
                if images.count == 1 { value = images[0] }
            }
            let name = single ? imageName : declared.name
            guard let value else {
                throw MLModelError.featureType("the input has no feature '\(name)' (it has \(input.featureNames.sorted().joined(separator: ", ")))")
            }
            guard value.imageBufferValue != nil || value.multiArrayValue != nil else {
                throw MLModelError.featureType("input '\(name)' must be an image or a multi-array, not \(value.type)")
            }
            guard value.imageBufferValue == nil || single else {
                throw MLModelError.featureType("input '\(name)' is an image; \(visionModel.url.lastPathComponent) takes \(description.inputs.count) "
                                               + "tensors, and images are fed to models with one input here (give multi-arrays)")
            }
            values.append(value)
        }
        var overrides: [String: Float] = [:]
        for feature in coreML?.inputs ?? [] where feature.type == "double" || feature.type == "int64" {
            guard let given = input.featureValue(for: feature.name), !given.isUndefined else {
                if feature.optional { continue }
                throw MLModelError.featureType("the input has no feature '\(feature.name)'")
            }
            guard given.type == .double || given.type == .int64 else {
                throw MLModelError.featureType("input '\(feature.name)' must be a number, not \(given.type)")
            }
            overrides[feature.name] = Float(given.doubleValue)
        }
        let outputs: [Tensor]
        do {
            var tensors: [Tensor] = []
            for (declared, value) in zip(description.inputs, values) {
                if let image = value.imageBufferValue {
                    tensors.append(try visionModel.makeInput(from: image.visionImage()).0)
                } else {
                    // A multi-array is passed as it is (its shape must be the input's).
                    let array = value.multiArrayValue!
                    tensors.append(Tensor(name: declared.name, shape: array.shape.map(\.intValue), scalars: array.values))
                }
            }
            outputs = try visionModel.prediction(from: tensors, overriding: overrides)
        } catch {
            throw MLModelError(error)
        }
        var features: [String: MLFeatureValue] = [:]
        for o in outputs {
            if let image = coreML?.imageOutputs?[o.name] {
                // An image output: the image Core ML makes of its tensor.
                features[o.name] = MLFeatureValue(pixelBuffer: try MLFeatureValue.image(ofOutput: o.name, shape: o.shape, values: o.scalars, as: image))
            } else {
                features[o.name] = MLFeatureValue(multiArray: MLMultiArray(shape: o.shape, values: o.scalars))
            }
        }
        // A classifier: the label and the probabilities by label, as Core ML gives them.
        if let coreML, !coreML.predictedProbabilitiesName.isEmpty, !coreML.classLabels.isEmpty,
           let probabilities = outputs.first(where: { $0.name == coreML.predictedProbabilitiesName }),
           probabilities.scalars.count == coreML.classLabels.count {
            let integerKeys = coreML.outputs.first(where: { $0.name == coreML.predictedProbabilitiesName })?.keyType == "int64"
            var scores: [AnyHashable: NSNumberValue] = [:]
            scores.reserveCapacity(coreML.classLabels.count)
            var best = 0
            for (i, p) in probabilities.scalars.enumerated() {
                let label = coreML.classLabels[i]
                scores[integerKeys ? AnyHashable(Int64(label) ?? Int64(i)) : AnyHashable(label)] = Double(p)
                if p > probabilities.scalars[best] { best = i }
            }
            features[coreML.predictedProbabilitiesName] = try MLFeatureValue(dictionary: scores)
            if !coreML.predictedFeatureName.isEmpty {
                let label = coreML.classLabels[best]
                let integerLabel = coreML.outputs.first(where: { $0.name == coreML.predictedFeatureName })?.type == "int64"
                features[coreML.predictedFeatureName] = integerLabel ? MLFeatureValue(int64: Int64(label) ?? Int64(best)) : MLFeatureValue(string: label)
            }
        }
        return try MLDictionaryFeatureProvider(dictionary: features)
    }

    /// `prediction(from:)`, asynchronously (Core ML's `async` form).
    public func prediction(from input: MLFeatureProvider) async throws -> MLFeatureProvider {
        try predictSync(input, MLPredictionOptions())
    }

    /// `prediction(from:options:)`, asynchronously.
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) async throws -> MLFeatureProvider {
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
    public func predictions(from inputs: MLBatchProvider, options: MLPredictionOptions = MLPredictionOptions()) throws -> MLBatchProvider {
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
        let has = (inputs: description.coreML?.inputs.map(\.name) ?? description.inputs.map(\.name),
                   outputs: description.coreML?.outputs.map(\.name) ?? description.outputs.map(\.name))
        let missing = inputs.filter { !has.inputs.contains($0) } + outputs.filter { !has.outputs.contains($0) }
        guard missing.isEmpty else {
            throw MLModelError.featureType("\(className) was generated for a model with inputs \(inputs.joined(separator: ", ")) and outputs "
                                           + "\(outputs.joined(separator: ", ")); \(visionModel.url.lastPathComponent) has inputs "
                                           + "\(has.inputs.joined(separator: ", ")) and outputs \(has.outputs.joined(separator: ", "))")
        }
    }

    /// Throws `MLModelError.featureType` unless `provider` has every one of `outputs`: a generated class's check before
    /// its typed output properties read them.
    public static func requireOutputs(_ outputs: [String], in provider: MLFeatureProvider, for className: String) throws {
        if let missing = outputs.first(where: { provider.featureValue(for: $0) == nil }) {
            throw MLModelError.featureType("\(className): the prediction has no output '\(missing)' "
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
        guard let error = error as? VisionError else { self = .generic("\(error)"); return }
        switch error.code {
        case .fileNotFound, .ioError: self = .io(error.message)
        default: self = .generic(error.message)
        }
    }
}
