/// Runs any model on the image and returns its raw outputs, as Vision's `CoreMLRequest` with a
/// model whose outputs are not detections or classes.
public struct RunModelRequest: CompletionHandlingRequest {
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

    /// What the model's input keeps of the image (see `VisionModel.minimumImageScale`).
    public func minimumImageScale(width: Double, height: Double) -> Double {
        model.minimumImageScale(width: width, height: height, cropAndScale: imageCropAndScaleOption)
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let (input, _) = try model.makeInput(from: image, cropAndScale: imageCropAndScaleOption)
        return try model.backend.run([input]).map { FeatureValueObservation(tensor: $0) }
    }
}

/// Vision's name for a request that runs a model and returns its raw outputs.
public typealias CoreMLRequest = RunModelRequest
