/// Computes an image's feature print, as Vision's `GenerateImageFeaturePrintRequest`: the
/// penultimate-layer vector of a classifier (the default classifier unless a model is given).
/// The model needs an output named "features" or "embedding(s)".
public struct GenerateImageFeaturePrintRequest: ModelRequest, CompletionHandlingRequest {
    /// One `FeaturePrintObservation` for the analysed image.
    public typealias Result = FeaturePrintObservation

    /// The model whose feature vector is computed; nil uses the default classifier.
    public var model: VisionModel?
    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Default `.centerCrop`, as the classifier.
    public var imageCropAndScaleOption: ImageCropAndScaleOption = .centerCrop
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(model: VisionModel? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    /// How images fit the model's input: `imageCropAndScaleOption`.
    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        guard
            let features = outputs.first(where: {
                ["features", "embedding", "embeddings"].contains($0.name.lowercased())
            })
        else {
            throw VisionError(
                .invalidModel,
                "the model has no feature output (named features or embedding); outputs: "
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
