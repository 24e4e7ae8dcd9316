/// A request that runs a model on the image, as Vision's `CoreMLRequest` family. The protocol owns
/// the shared pipeline (region of interest → input fitting → backend → decoding, with stage
/// timings and `minimumImageScale`); a conforming request supplies only its model, how the image
/// fits the input, and how outputs become results.
public protocol ModelRequest: VisionRequest {
    /// The model this request runs: its own, or a default one (e.g. the default classifier).
    func resolvedModel() throws(VisionError) -> VisionModel

    /// How images fit the model's input; nil uses the model's own default.
    var inputFitting: ImageCropAndScaleOption? { get }

    /// Checks the request's options before any work; throws `invalidArgument`. Default: no checks.
    func validateOptions() throws(VisionError)

    /// Turns the model's outputs into results. `mapping` maps input-tensor pixels back to the
    /// analysed image (the request's region of interest).
    func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError) -> Result

    /// Values for inputs the model lets callers override (initializers with defaults, such as a Core ML
    /// detector pipeline's IoU and confidence thresholds), by name; names the model lacks are ignored, and a backend
    /// that cannot set the others fails the request (`unsupported`). Default: none.
    func inputOverrides(for model: VisionModel) -> [String: Float]

    /// Completes the model's results with what other requests find in the same image (`ClassifyImageRequest` in
    /// Apple's taxonomy adds the built-in detector's objects). Default: the results unchanged.
    func completing(_ results: Result, in context: ImageAnalysisContext) throws(VisionError) -> Result
}

extension ModelRequest {
    /// Default: no checks.
    public func validateOptions() throws(VisionError) {}

    /// Default: no overrides (the model's own input defaults).
    public func inputOverrides(for model: VisionModel) -> [String: Float] { [:] }

    /// Default: the results unchanged.
    public func completing(_ results: Result, in context: ImageAnalysisContext) throws(VisionError) -> Result {
        results
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try performWithTimings(in: context).0
    }

    /// What the model's input keeps of the image (see `VisionModel.minimumImageScale`); 1 when the
    /// model cannot be loaded (the request will then report that error when it runs).
    public func minimumImageScale(width: Double, height: Double) -> Double {
        guard let model = try? resolvedModel() else { return 1 }
        return model.minimumImageScale(width: width, height: height, cropAndScale: inputFitting)
    }

    /// Runs the request and reports where the time went (decode, preprocess, inference, postprocess).
    public func performWithTimings(in context: ImageAnalysisContext) throws(VisionError) -> (Result, InferenceTimings) {
        try validateOptions()
        let model = try resolvedModel()
        var clock = StageClock()
        let image = try imageForRegionOfInterest(in: context)
        clock.timings.decode = clock.lap()
        let (input, mapping) = try model.makeInput(from: image, cropAndScale: inputFitting)
        clock.timings.preprocess = clock.lap()
        let outputs = try model.backend.run([input], overriding: model.applicable(inputOverrides(for: model)))
        clock.timings.inference = clock.lap()
        let results = try completing(results(fromOutputs: outputs, mapping: mapping, model: model), in: context)
        clock.timings.postprocess = clock.lap()
        return (results, clock.timings)
    }

    /// The larger side of the model's input in pixels, or nil when the model cannot be loaded.
    var modelInputMaxDimension: Int? {
        guard let p = (try? resolvedModel())?.modelDescription.preprocessing else { return nil }
        return max(p.width, p.height)
    }
}
