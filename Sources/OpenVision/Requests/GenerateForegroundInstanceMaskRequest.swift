/// Separates the salient objects of an image from the background, as Vision's `GenerateForegroundInstanceMaskRequest`
/// ("lift subject"): one `InstanceMaskObservation` whose mask labels each pixel of the analysed image (after
/// `regionOfInterest`) 0 for background and 1…n for each object, numbered largest first; an image with no foreground
/// gives nil.
///
/// How (docs/requests.md, "Foreground"): U²-Netp (`u2netp.onnx`, the model rembg ships) gives a foreground probability
/// per pixel exactly as rembg 0.1.3's pipeline does (Pillow's LANCZOS resizes included); its blobs (probability ≥ 0.5,
/// 8-connected) are the instances, split where the built-in COCO-80 detector finds several objects in one blob
/// (people then by `GeneratePersonInstanceMaskRequest`'s masks, so a person beside a dog is two instances; touching
/// objects of one kind stay one). Each labelled pixel keeps its probability for `generateScaledMaskForImage`. An image
/// where the model's probability stays under 0.5 everywhere (blank, flat) has no foreground, although rembg's min-max
/// stretch would make one of its faint variations.
/// Throws `missingModelData` naming `u2netp.onnx` when scripts/setup has not installed it.
public struct GenerateForegroundInstanceMaskRequest: CompletionHandlingRequest {
    /// The salient objects' instance mask; nil when the image has no foreground.
    public typealias Result = InstanceMaskObservation?
    /// Reported under `foregroundInstances`, the objects drawn in colours.
    public func reportable(_ results: Result) -> any ReportableResult { results.map(ForegroundInstancesReport.init) }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region is invalid, the model is not installed or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let (mask, peak) = try ForegroundSegmenter.installed().mask(for: image)
        guard peak >= ForegroundSegmenter.minimumPeak else { return nil }
        let splitter = ForegroundInstanceSplitter(mask: mask, width: image.width, height: image.height)
        guard splitter.blobCount > 0 else { return nil }
        let region = ImageAnalysisContext(image: image)
        let boxes = splitter.boxSeeds(try DetectObjectsRequest().perform(in: region))
        var seeds = boxes.map(\.seed)
        var personLabels: [Float]?
        // People are told apart by their masks, computed only when a blob holds a person and another object.
        let owners = splitter.blobsOfSeeds(seeds, personLabels: nil)
        let crowded = owners.indices.contains { s in
            boxes[s].label == ForegroundInstanceSplitter.personLabel && owners[s] != nil
                && owners.indices.contains { $0 != s && owners[$0] == owners[s] }
        }
        if crowded, let people = try GeneratePersonInstanceMaskRequest().perform(in: region) {
            let labels = people.instanceMask.values
            personLabels = labels
            seeds =
                boxes.filter { $0.label != ForegroundInstanceSplitter.personLabel }.map(\.seed)
                + splitter.personSeeds(labels)
        }
        let (labels, count) = splitter.instances(seeds: seeds, personLabels: personLabels)
        guard count > 0 else { return nil }
        var probabilities = [Float](repeating: 0, count: labels.count)
        var sum: Float = 0
        for i in labels.indices where labels[i] > 0 {
            probabilities[i] = Float(mask[i]) / 255
            sum += probabilities[i]
        }
        return try InstanceMaskObservation(
            width: image.width, height: image.height, labels: labels, probabilities: probabilities,
            confidence: sum / Float(max(labels.lazy.filter { $0 > 0 }.count, 1)))
    }
}
