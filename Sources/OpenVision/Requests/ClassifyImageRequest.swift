import Foundation

/// Classifies the whole image with a classifier model, as Vision's `ClassifyImageRequest`.
/// Without a model it uses the default classifier (EfficientNet-Lite0, ImageNet-1k, installed
/// by scripts/setup). Softmax is applied when the model outputs logits.
public struct ClassifyImageRequest: ModelRequest, CompletionHandlingRequest {
    /// One `ClassificationObservation` per class of the model, most confident first.
    public typealias Result = [ClassificationObservation]

    /// The classifier; nil loads the default classifier on first use.
    public var model: VisionModel?
    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// How many labels to return, most confident first. Default 5; 0 returns all.
    public var maximumObservations: Int = 5
    /// How images fit the input; nil uses `.centerCrop` (Vision's default for classifiers).
    public var imageCropAndScaleOption: ImageCropAndScaleOption?
    /// The labels results use: the model's own (default), or Apple's identifiers (`.apple`, ImageNet-1k classifiers
    /// only: other models throw `invalidArgument`).
    public var taxonomy: ClassificationTaxonomy = .model
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(model: VisionModel? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    /// `.centerCrop` unless set, as Vision's classifiers.
    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption ?? .centerCrop }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        guard let scores = Self.classScores(outputs) else {
            throw VisionError(
                .invalidModel,
                "no classifier output among " + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        let labels = model.modelDescription.labels
        if !labels.isEmpty && labels.count != scores.count {
            throw VisionError(.invalidModel, "the model has \(scores.count) classes but \(labels.count) labels")
        }
        let probabilities = Self.probabilities(scores)
        if taxonomy == .apple {
            // All of them: `completing(_:in:)` adds the detector's objects, then keeps `maximumObservations`.
            return try AppleTaxonomy.classifications(fromProbabilities: probabilities, labels: labels)
        }
        let order = probabilities.indices.sorted { probabilities[$0] > probabilities[$1] }
        let top = maximumObservations == 0 ? order : Array(order.prefix(maximumObservations))
        return top.map {
            ClassificationObservation(
                identifier: $0 < labels.count ? labels[$0] : "class\($0)",
                confidence: probabilities[$0])
        }
    }

    /// In Apple's taxonomy, the built-in detector's objects within `regionOfInterest` added (`AppleTaxonomy`), then
    /// `maximumObservations` kept; otherwise `results` unchanged.
    public func completing(_ results: Result, in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard taxonomy == .apple else { return results }
        var detector = DetectObjectsRequest()
        detector.regionOfInterest = regionOfInterest
        let merged = AppleTaxonomy.merging(results, objects: try detector.perform(in: context))
        return maximumObservations == 0 ? merged : Array(merged.prefix(maximumObservations))
    }

    /// The class-score vector: an output named like logits/probabilities, else the first 1-D output.
    static func classScores(_ outputs: [Tensor]) -> [Float]? {
        let vectors = outputs.filter { $0.squeezedShape.count == 1 }
        let named = vectors.first {
            ["logits", "probs", "probabilities", "output", "scores"].contains($0.name.lowercased())
        }
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
    public func resolvedModel() throws(VisionError) -> VisionModel {
        if let model { return model }
        return try DefaultModels.classifier()
    }
}
