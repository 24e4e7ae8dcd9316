import Foundation
import OpenVision

/// Core ML's `MLModel` on Linux: a model file (ONNX, or a Darknet `.cfg`) loaded once through OpenVision
/// (`VisionModel`), to hand to `VNCoreMLModel(for:)` or to run with `prediction(from:)`.
/// Apple's `.mlmodel`/`.mlpackage` files are not readable here: convert the model to ONNX.
open class MLModel {
    /// The OpenVision model this wraps.
    public let visionModel: VisionModel
    public let configuration: MLModelConfiguration
    /// The model's description (inputs, outputs, labels as Core ML's `classLabels`).
    public var modelDescription: MLModelDescription { MLModelDescription(visionModel.modelDescription) }

    /// Loads the model at `url` (Core ML's compiled-model URL; here an `.onnx` or Darknet `.cfg`).
    public init(contentsOf url: URL, configuration: MLModelConfiguration = MLModelConfiguration()) throws {
        var c = VisionModel.Configuration()
        c.threads = configuration.threads
        self.visionModel = try VisionModel(contentsOf: url, configuration: c)
        self.configuration = configuration
    }

    /// Wraps an already loaded OpenVision model.
    public init(visionModel: VisionModel, configuration: MLModelConfiguration = MLModelConfiguration()) {
        self.visionModel = visionModel
        self.configuration = configuration
    }

    /// Runs the model on `input`'s first image feature (or multi-array) and returns its outputs by name.
    public func prediction(from input: MLFeatureProvider) throws -> MLFeatureProvider {
        guard let name = input.featureNames.first, let value = input.featureValue(for: name) else {
            throw MLModelError.generic("the input provides no features")
        }
        let outputs: [FeatureValueObservation]
        if let image = value.imageBufferValue {
            outputs = try ImageRequestHandler(image: image).performSync(RunModelRequest(model: visionModel))
        } else {
            throw MLModelError.generic("only image inputs are supported on Linux; pass an image feature")
        }
        var features: [String: MLFeatureValue] = [:]
        for o in outputs { features[o.featureName] = MLFeatureValue(multiArray: MLMultiArray(shape: o.shape, values: o.values)) }
        return try MLDictionaryFeatureProvider(dictionary: features)
    }
}

/// Core ML's errors as thrown by this module.
public enum MLModelError: Error, CustomStringConvertible {
    case generic(String)
    public var description: String { switch self { case .generic(let m): m } }
}

extension ImageRequestHandler {
    /// Runs one request synchronously on this handler's image (Core ML's `prediction` is synchronous).
    func performSync<R: VisionRequest>(_ request: R) throws(VisionError) -> R.Result {
        try request.perform(in: context)
    }
}
