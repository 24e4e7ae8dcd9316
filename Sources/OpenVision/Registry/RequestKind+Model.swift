import Foundation

extension RequestKind {
    /// The model this kind runs under `options`, loaded by `loader`: the one the `model` option names, else the kind's
    /// default; nil for kinds that run no model of the user's, and for the built-in detector loaded as it is (the
    /// request loads it on first use). `invalidArgument` for a model request that needs a model and was given none.
    public func model(for options: RequestOptions, loader: any ModelLoader) async throws(VisionError) -> VisionModel? {
        guard let defaultModel else { return nil }
        let configuration = options.modelConfiguration
        if let name = options.modelName { return try await loader.model(named: name, configuration: configuration) }
        switch defaultModel {
        case .builtInDetector:
            guard configuration != VisionModel.Configuration() else { return nil }
            guard let url = VisionModel.defaultDetectorURL else {
                throw VisionError(
                    .missingModelData,
                    "the built-in detector is missing from OpenVision's resources; rebuild, or "
                        + "give a model")
            }
            return try await loader.model(named: url.path, configuration: configuration)
        case .named(let name):
            return try await loader.model(named: name, configuration: configuration)
        case .required:
            throw VisionError(.invalidArgument, "'\(self.name)' runs a model of yours: give one (model)")
        }
    }
}
