/// Runs any model on the image and returns its raw outputs, as Vision's `CoreMLRequest` with a
/// model whose outputs are not detections or classes.
public struct RunModelRequest: ModelRequest, CompletionHandlingRequest {
    public typealias Result = [FeatureValueObservation]

    public let model: VisionModel
    public var regionOfInterest: NormalizedRect = .fullImage
    /// How images fit the input; nil uses the model's default.
    public var imageCropAndScaleOption: ImageCropAndScaleOption?
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(model: VisionModel, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    public func resolvedModel() throws(VisionError) -> VisionModel { model }

    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption }

    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError) -> Result {
        outputs.map { FeatureValueObservation(tensor: $0) }
    }
}

/// Vision's name for a request that runs a model and returns its raw outputs.
public typealias CoreMLRequest = RunModelRequest
