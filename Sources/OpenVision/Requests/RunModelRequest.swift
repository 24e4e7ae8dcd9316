/// Runs any model on the image and returns its raw outputs, as Vision's `CoreMLRequest` with a
/// model whose outputs are not detections or classes.
public struct RunModelRequest: ModelRequest, CompletionHandlingRequest {
    /// One `FeatureValueObservation` per model output, in the model's output order.
    public typealias Result = [FeatureValueObservation]

    /// The model to run.
    public let model: VisionModel
    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// How images fit the input; nil uses the model's default.
    public var imageCropAndScaleOption: ImageCropAndScaleOption?
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(model: VisionModel, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    /// The given `model`.
    public func resolvedModel() throws(VisionError) -> VisionModel { model }

    /// How images fit the model's input: `imageCropAndScaleOption` (nil: the model's default).
    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        outputs.map { FeatureValueObservation(tensor: $0) }
    }
}

/// Vision's name for a request that runs a model and returns its raw outputs.
public typealias CoreMLRequest = RunModelRequest
