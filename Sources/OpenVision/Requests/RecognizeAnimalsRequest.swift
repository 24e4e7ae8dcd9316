/// Finds cats and dogs, as Vision's `RecognizeAnimalsRequest`: `RecognizedObjectObservation`s labelled
/// with Vision's identifiers `Cat` and `Dog`, from the built-in COCO-80 detector's cat and dog classes
/// (Yolo-Fastest-1.1-XL; Vision's is its own network), most confident first.
public struct RecognizeAnimalsRequest: BuiltInDetectorRequest, CompletionHandlingRequest {
    /// One `RecognizedObjectObservation` per finding; empty when there is none.
    public typealias Result = [RecognizedObjectObservation]

    /// Vision's animal identifiers.
    public enum AnimalIdentifier: String, Sendable, CaseIterable, Codable {
        /// Cats: the COCO class `cat`.
        case cat = "Cat"
        /// Dogs: the COCO class `dog`.
        case dog = "Dog"

        /// The detector's COCO class for this animal.
        var cocoLabel: String { rawValue.lowercased() }
    }

    /// The animals this request recognises (Vision's `supportedIdentifiers`).
    public static var supportedIdentifiers: [AnimalIdentifier] { AnimalIdentifier.allCases }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Animals scoring below this are dropped. Default 0.25 (the detector's default).
    public var confidenceThreshold: Float = 0.25
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Under the report's `animals` key (not `objects`).
    public func reportable(_ results: Result) -> any ReportableResult { AnimalsReport(results) }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        let names = Dictionary(uniqueKeysWithValues: AnimalIdentifier.allCases.map { ($0.cocoLabel, $0.rawValue) })
        return try detections(outputs, mapping: mapping, model: model, labels: Set(names.keys)).map { found in
            RecognizedObjectObservation(
                boundingBox: found.boundingBox,
                labels: found.labels.compactMap { label in
                    names[label.identifier].map {
                        ClassificationObservation(identifier: $0, confidence: label.confidence)
                    }
                }, uuid: found.uuid)
        }
    }
}
