/// Computes an image's feature print, as Vision's `GenerateImageFeaturePrintRequest`: the
/// penultimate-layer vector of a classifier (the default classifier unless a model is given).
/// The model needs an output named "features" or "embedding(s)".
public struct GenerateImageFeaturePrintRequest: CompletionHandlingRequest {
    public typealias Result = FeaturePrintObservation

    public var model: VisionModel?
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Default `.centerCrop`, as the classifier.
    public var imageCropAndScaleOption: ImageCropAndScaleOption = .centerCrop
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(model: VisionModel? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    /// What the model's input keeps of the image (see `VisionModel.minimumImageScale`).
    public func minimumImageScale(width: Double, height: Double) -> Double {
        (try? resolvedModel())?.minimumImageScale(width: width, height: height, cropAndScale: imageCropAndScaleOption) ?? 1
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let model = try resolvedModel()
        let image = try imageForRegionOfInterest(in: context)
        let (input, _) = try model.makeInput(from: image, cropAndScale: imageCropAndScaleOption)
        let outputs = try model.backend.run([input])
        guard let features = outputs.first(where: { ["features", "embedding", "embeddings"].contains($0.name.lowercased()) }) else {
            throw VisionError(.invalidModel, "the model has no feature output (named features or embedding); outputs: "
                + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        return FeaturePrintObservation(data: features.scalars)
    }

    /// The given model, or the default classifier.
    func resolvedModel() throws(VisionError) -> VisionModel {
        if let model { return model }
        return try DefaultModels.classifier()
    }
}
