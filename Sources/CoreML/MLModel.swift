import Foundation
import OpenVision

/// Core ML's `MLModel` on Linux: a model file loaded once through OpenVision (`VisionModel`) — Core ML's own
/// `.mlmodel`, `.mlpackage` and `.mlmodelc` (converted to ONNX on first use and cached), ONNX, TFLite or a
/// Darknet `.cfg` — to hand to `VNCoreMLModel(for:)` or to run with `prediction(from:)`.
open class MLModel {
    /// The OpenVision model this wraps.
    public let visionModel: VisionModel
    public let configuration: MLModelConfiguration
    /// The model's description: inputs, outputs, classifier outputs, labels and metadata.
    public let modelDescription: MLModelDescription

    /// Loads the model at `url`: a compiled `.mlmodelc` (Core ML's usual URL), an `.mlmodel` / `.mlpackage`, or
    /// another format `VisionModel` reads. Throws the model's `VisionError` (`invalidModel`, `unsupported`, …).
    public init(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) throws {
        var c = VisionModel.Configuration()
        c.threads = configuration.threads
        self.visionModel = try VisionModel(contentsOf: url, configuration: c)
        self.configuration = configuration
        modelDescription = MLModelDescription(visionModel.modelDescription)
    }

    /// Wraps an already loaded OpenVision model.
    public init(visionModel: VisionModel, configuration: MLModelConfiguration = MLModelConfiguration()) {
        self.visionModel = visionModel
        self.configuration = configuration
        modelDescription = MLModelDescription(visionModel.modelDescription)
    }

    /// Core ML's asynchronous loading.
    public class func load(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> MLModel {
        try MLModel(contentsOf: url, configuration: configuration)
    }

    /// Core ML's completion-handler loading (the handler runs on a background queue).
    public class func load(contentsOf url: URL, configuration: MLModelConfiguration,
                           completionHandler handler: @escaping (Result<MLModel, Error>) -> Void) {
        DispatchQueue.global().async { handler(Result { try MLModel(contentsOf: url, configuration: configuration) }) }
    }

    /// Compiles an `.mlmodel` / `.mlpackage` into an `.mlmodelc` folder in a temporary directory and returns its
    /// URL, as Core ML does (move it somewhere permanent to keep it). The folder's layout is OpenVision's own
    /// (docs/coreml.md): it loads without conversion.
    public class func compileModel(at url: URL) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openvision-compiled-\(UUID().uuidString)")
        return try VisionModel.compileCoreMLModel(at: url, to: folder)
    }

    /// `compileModel(at:)`, asynchronously.
    public class func compileModel(at url: URL) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openvision-compiled-\(UUID().uuidString)")
        return try VisionModel.compileCoreMLModel(at: url, to: folder)
    }

    /// Runs the model on `input`, whose features are named as the model's inputs (a model with one input also
    /// takes a provider with one feature of any name). Images fill the model's image input (scaled to its size,
    /// with its colour order and scaling); multi-arrays are passed as they are; a detector pipeline's optional
    /// `iouThreshold` / `confidenceThreshold` doubles replace its defaults. Outputs are named as the model's: a
    /// classifier gives its label (`String`) and label → probability dictionary, other outputs multi-arrays.
    public func prediction(from input: MLFeatureProvider) throws -> MLFeatureProvider {
        try predict(input)
    }

    func predict(_ input: MLFeatureProvider) throws -> MLFeatureProvider {
        let d = visionModel.modelDescription
        var tensors: [Tensor] = []
        for declared in d.inputs {
            var value = input.featureValue(for: declared.name)
            if value == nil, d.inputs.count == 1, input.featureNames.count == 1, let only = input.featureNames.first {
                value = input.featureValue(for: only)
            }
            guard let value else {
                throw MLModelError.generic("the input provides no feature '\(declared.name)' (features: \(input.featureNames.sorted()))")
            }
            if let image = value.imageBufferValue {
                let (tensor, _) = try visionModel.makeInput(from: image, cropAndScale: .scaleFill)
                tensors.append(Tensor(name: declared.name, shape: tensor.shape, scalars: tensor.scalars))
            } else if let array = value.multiArrayValue {
                tensors.append(Tensor(name: declared.name, shape: array.shape.map(\.intValue), scalars: array.values))
            } else if value.type == .double || value.type == .int64 {
                tensors.append(Tensor(name: declared.name, shape: declared.shape.map { $0 ?? 1 }, scalars: [Float(value.doubleValue)]))
            } else {
                throw MLModelError.generic("input '\(declared.name)' needs an image or a multi-array, got \(value.type)")
            }
        }
        var overrides: [String: Float] = [:]
        if let nms = d.coreML?.nms {
            for name in [nms.iouThresholdInput, nms.confidenceThresholdInput] where !name.isEmpty {
                if let v = input.featureValue(for: name), !v.isUndefined, v.type == .double || v.type == .int64 {
                    overrides[name] = Float(v.doubleValue)
                }
            }
        }
        let outputs = try visionModel.prediction(from: tensors, overriding: overrides)
        return try features(from: outputs)
    }

    /// `prediction(from:)`; the options change nothing here (every prediction runs on the CPU).
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) throws -> MLFeatureProvider {
        try predict(input)
    }

    /// `prediction(from:)`, asynchronously (Core ML's `async` form).
    public func prediction(from input: MLFeatureProvider) async throws -> MLFeatureProvider {
        try predict(input)
    }

    /// `prediction(from:options:)`, asynchronously.
    public func prediction(from input: MLFeatureProvider, options: MLPredictionOptions) async throws -> MLFeatureProvider {
        try predict(input)
    }

    /// One prediction per input of the batch, in order.
    public func predictions(fromBatch inputs: MLBatchProvider, options: MLPredictionOptions = MLPredictionOptions()) throws -> MLBatchProvider {
        MLArrayBatchProvider(array: try (0..<inputs.count).map { try predict(inputs.features(at: $0)) })
    }

    /// The model's outputs as Core ML names and types them.
    func features(from outputs: [Tensor]) throws -> MLFeatureProvider {
        var features: [String: MLFeatureValue] = [:]
        let description = modelDescription
        for o in outputs {
            let declared = description.outputDescriptionsByName[o.name]?.multiArrayConstraint?.dataType ?? .float32
            let array: MLMultiArray
            if declared == .float32 {
                array = MLMultiArray(shape: o.shape, values: o.scalars)
            } else {
                array = try MLMultiArray(shape: o.shape.map { NSNumber(value: $0) }, dataType: declared)
                for (i, v) in o.scalars.enumerated() { array[i] = NSNumber(value: v) }
            }
            features[o.name] = MLFeatureValue(multiArray: array)
        }
        if let probabilities = description.predictedProbabilitiesName, let tensor = outputs.first(where: { $0.name == probabilities }) ?? outputs.first,
           let labels = description.classLabels as? [String], labels.count == tensor.scalars.count {
            var scores: [AnyHashable: NSNumber] = [:]
            for (label, p) in zip(labels, tensor.scalars) { scores[label] = NSNumber(value: Double(p)) }
            features[probabilities] = try MLFeatureValue(dictionary: scores)
            if let label = description.predictedFeatureName, let best = tensor.scalars.indices.max(by: { tensor.scalars[$0] < tensor.scalars[$1] }) {
                features[label] = MLFeatureValue(string: labels[best])
            }
        }
        return try MLDictionaryFeatureProvider(dictionary: features)
    }
}

/// Core ML's errors as thrown by this module.
public enum MLModelError: Error, CustomStringConvertible {
    case generic(String)
    public var description: String { switch self { case .generic(let m): m } }
}
