/// Finds cats and dogs, as Vision's `RecognizeAnimalsRequest`: `RecognizedObjectObservation`s labelled
/// with Vision's identifiers `Cat` and `Dog`, from the built-in COCO-80 detector's cat and dog classes
/// (Yolo-Fastest-1.1-XL; Vision's is its own network), most confident first.
public struct RecognizeAnimalsRequest: ModelRequest, CompletionHandlingRequest {
    public typealias Result = [RecognizedObjectObservation]
    public var reportName: String { "animals" }

    /// Vision's animal identifiers.
    public enum AnimalIdentifier: String, Sendable, CaseIterable, Codable {
        case cat = "Cat"
        case dog = "Dog"

        /// The detector's COCO class for this animal.
        var cocoLabel: String { rawValue.lowercased() }
    }

    /// The animals this request recognises (Vision's `supportedIdentifiers`).
    public static var supportedIdentifiers: [AnimalIdentifier] { AnimalIdentifier.allCases }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// Animals scoring below this are dropped. Default 0.25 (the detector's default).
    public var confidenceThreshold: Float = 0.25
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func resolvedModel() throws(VisionError) -> VisionModel { try DefaultModels.detector() }
    public var inputFitting: ImageCropAndScaleOption? { nil }

    public func validateOptions() throws(VisionError) {
        guard (0...1).contains(confidenceThreshold) else {
            throw VisionError(.invalidArgument, "confidenceThreshold must be 0...1")
        }
    }

    /// Under the report's `animals` key (not `objects`).
    public func addResults(_ results: Result, to report: inout AnalysisReport) { report.addAnimals(results) }

    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError) -> Result {
        var animals = DetectObjectsRequest(model: model)
        animals.confidenceThreshold = confidenceThreshold
        animals.allowedLabels = Set(AnimalIdentifier.allCases.map(\.cocoLabel))
        let names = Dictionary(uniqueKeysWithValues: AnimalIdentifier.allCases.map { ($0.cocoLabel, $0.rawValue) })
        return try animals.observations(fromOutputs: outputs, mapping: mapping, model: model).map { found in
            RecognizedObjectObservation(boundingBox: found.boundingBox, labels: found.labels.compactMap { label in
                names[label.identifier].map { ClassificationObservation(identifier: $0, confidence: label.confidence) }
            }, uuid: found.uuid)
        }
    }
}
