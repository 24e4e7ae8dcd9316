/// Computes an image's feature print, as Vision's `GenerateImageFeaturePrintRequest`: the
/// penultimate-layer vector of a classifier (the default classifier unless a model is given).
/// The model needs an output named "features" or "embedding(s)".
public struct GenerateImageFeaturePrintRequest: ModelRequest, CompletionHandlingRequest {
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

    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption }

    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError) -> Result {
        guard let features = outputs.first(where: { ["features", "embedding", "embeddings"].contains($0.name.lowercased()) }) else {
            throw VisionError(.invalidModel, "the model has no feature output (named features or embedding); outputs: "
                + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        return FeaturePrintObservation(data: features.scalars)
    }

    /// The given model, or the default classifier.
    public func resolvedModel() throws(VisionError) -> VisionModel {
        if let model { return model }
        return try DefaultModels.classifier()
    }
}
