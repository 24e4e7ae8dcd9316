/// A request answered by the built-in COCO-80 detector's classes (`RecognizeAnimalsRequest`,
/// `DetectHumanRectanglesRequest`): the model, its fitting and the threshold check are shared.
public protocol BuiltInDetectorRequest: ModelRequest {
    /// Detections scoring below this are dropped (0...1).
    var confidenceThreshold: Float { get }
}

extension BuiltInDetectorRequest {
    /// The built-in detector.
    public func resolvedModel() throws(VisionError) -> VisionModel { try DefaultModels.detector() }

    /// The detector's own fitting (stretched, as it was trained).
    public var inputFitting: ImageCropAndScaleOption? { nil }

    /// Throws `invalidArgument` unless `confidenceThreshold` is in 0...1.
    public func validateOptions() throws(VisionError) {
        guard (0...1).contains(confidenceThreshold) else {
            throw VisionError(.invalidArgument, "confidenceThreshold must be 0...1")
        }
    }

    /// The detector's observations of the COCO classes `labels`, decoded from `outputs`.
    func detections(_ outputs: [Tensor], mapping: InputMapping, model: VisionModel, labels: Set<String>)
        throws(VisionError)
        -> [RecognizedObjectObservation]
    {
        var request = DetectObjectsRequest(model: model)
        request.confidenceThreshold = confidenceThreshold
        request.allowedLabels = labels
        return try request.observations(fromOutputs: outputs, mapping: mapping, model: model)
    }
}
