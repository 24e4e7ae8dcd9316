import Foundation

/// Classifies the whole image with a classifier model, as Vision's `ClassifyImageRequest`.
/// Without a model it uses the default classifier (EfficientNet-Lite0, ImageNet-1k, installed
/// by scripts/setup). Softmax is applied when the model outputs logits.
public struct ClassifyImageRequest: CompletionHandlingRequest {
    public typealias Result = [ClassificationObservation]

    /// The classifier; nil loads the default classifier on first use.
    public var model: VisionModel?
    public var regionOfInterest: NormalizedRect = .fullImage
    /// How many labels to return, most confident first. Default 5; 0 returns all.
    public var maximumObservations: Int = 5
    /// How images fit the input; nil uses `.centerCrop` (Vision's default for classifiers).
    public var imageCropAndScaleOption: ImageCropAndScaleOption?
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(model: VisionModel? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try performWithTimings(in: context).0
    }

    /// What the model's input keeps of the image (see `VisionModel.minimumImageScale`).
    public func minimumImageScale(width: Double, height: Double) -> Double {
        (try? resolvedModel())?.minimumImageScale(width: width, height: height, cropAndScale: imageCropAndScaleOption ?? .centerCrop) ?? 1
    }

    /// Runs the request and reports where the time went.
    public func performWithTimings(in context: ImageAnalysisContext) throws(VisionError) -> (Result, InferenceTimings) {
        let model = try resolvedModel()
        var clock = StageClock()
        let image = try imageForRegionOfInterest(in: context)
        clock.timings.decode = clock.lap()
        let (input, _) = try model.makeInput(from: image, cropAndScale: imageCropAndScaleOption ?? .centerCrop)
        clock.timings.preprocess = clock.lap()
        let outputs = try model.backend.run([input])
        clock.timings.inference = clock.lap()
        guard let scores = Self.classScores(outputs) else {
            throw VisionError(.invalidModel, "no classifier output among " + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        let labels = model.modelDescription.labels
        if !labels.isEmpty && labels.count != scores.count {
            throw VisionError(.invalidModel, "the model has \(scores.count) classes but \(labels.count) labels")
        }
        let probabilities = Self.probabilities(scores)
        let order = probabilities.indices.sorted { probabilities[$0] > probabilities[$1] }
        let top = maximumObservations == 0 ? order : Array(order.prefix(maximumObservations))
        let result = top.map { ClassificationObservation(identifier: $0 < labels.count ? labels[$0] : "class\($0)",
                                                         confidence: probabilities[$0]) }
        clock.timings.postprocess = clock.lap()
        return (result, clock.timings)
    }

    /// The class-score vector: an output named like logits/probabilities, else the first 1-D output.
    static func classScores(_ outputs: [Tensor]) -> [Float]? {
        let vectors = outputs.filter { $0.squeezedShape.count == 1 }
        let named = vectors.first { ["logits", "probs", "probabilities", "output", "scores"].contains($0.name.lowercased()) }
        return (named ?? vectors.first { !$0.name.lowercased().contains("feature") } ?? vectors.first)?.scalars
    }

    /// Softmax when the scores are not already a probability distribution.
    static func probabilities(_ scores: [Float]) -> [Float] {
        let sum = scores.reduce(0, +)
        if scores.allSatisfy({ $0 >= 0 && $0 <= 1 }) && abs(sum - 1) < 0.01 { return scores }
        let m = scores.max() ?? 0
        let e = scores.map { exp($0 - m) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }

    /// The given model, or the default classifier.
    func resolvedModel() throws(VisionError) -> VisionModel {
        if let model { return model }
        return try DefaultModels.classifier()
    }
}
