/// Separates the people in an image, as Vision's `GeneratePersonInstanceMaskRequest`: one `InstanceMaskObservation`
/// whose mask labels each pixel of the analysed image (after `regionOfInterest`) 0 for background and 1…n for
/// each person (at most 4, as Vision), numbered best detection first; an image without people gives nil.
///
/// Ours is the body pose pipeline of `DetectHumanBodyPoseRequest` (MediaPipe's `pose_detection.tflite` then
/// `pose_landmark_full.tflite`) reading the landmark model's 256 × 256 segmentation of each person's body region,
/// warped back onto the image as MediaPipe's `WarpAffineCalculator` does (bilinear, zero outside the region). A
/// pixel is a person's where that person's probability is at least 0.5, and the most probable person's where
/// several overlap. A person whose mask keeps no pixel is left out (the others are numbered on without a gap).
/// Throws `missingModelData` when the models are not installed.
public struct GeneratePersonInstanceMaskRequest: CompletionHandlingRequest {
    /// The people's instance mask; nil when no person is found.
    public typealias Result = InstanceMaskObservation?
    /// Reported under `personInstances`, the people drawn in colours.
    public func reportable(_ results: Result) -> any ReportableResult { results.map(PersonInstancesReport.init) }

    /// Vision's limit on people in one mask.
    public static let maximumInstanceCount = 4

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
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let pipeline = try BlazePosePipeline.installed()
        let people = try pipeline.estimates(in: image, maximumCount: Self.maximumInstanceCount, segmentation: true)
        guard !people.isEmpty else { return nil }
        let (w, h) = (image.width, image.height)
        var probability = [Float](repeating: 0, count: w * h)
        var label = [Float](repeating: 0, count: w * h)
        for (i, person) in people.enumerated() {
            BlazePosePipeline.paintSegmentation(
                person, instance: Float(i + 1), width: w, height: h, probability: &probability, label: &label)
        }
        // Number the instances that kept pixels 1…n.
        var counts = [Int](repeating: 0, count: people.count + 1)
        for v in label { counts[Int(v)] += 1 }
        var renumber = [Float](repeating: 0, count: people.count + 1)
        var next: Float = 0
        for i in 1...people.count where counts[i] > 0 {
            next += 1
            renumber[i] = next
        }
        guard next > 0 else { return nil }
        if renumber.enumerated().contains(where: { $0.element != Float($0.offset) && counts[$0.offset] > 0 }) {
            for k in label.indices { label[k] = renumber[Int(label[k])] }
        }
        let kept = (1...people.count).filter { counts[$0] > 0 }.map { people[$0 - 1].presence }
        return try InstanceMaskObservation(
            width: w, height: h, labels: label, probabilities: probability,
            confidence: kept.reduce(0, +) / Float(kept.count))
    }
}
