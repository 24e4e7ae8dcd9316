/// Finds people, as Vision's `DetectHumanRectanglesRequest`: the built-in COCO-80 detector's `person`
/// class (Yolo-Fastest-1.1-XL; Vision's is its own network), most confident first.
///
/// With `upperBodyOnly` (the default, as in Vision) each box keeps the top of the person's box: head and
/// torso are about 55 % of a standing adult's height (head to hip), and a box less than ~1.8× as tall as
/// wide (a seated or already cropped figure) keeps 1.2× its width or all of itself. So the upper-body
/// height is `min(h, max(0.55 h, 1.2 w))` in pixels, same top, same width. A body-pose model could refine
/// this later.
public struct DetectHumanRectanglesRequest: BuiltInDetectorRequest, CompletionHandlingRequest {
    /// One `HumanObservation` per finding; empty when there is none.
    public typealias Result = [HumanObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Boxes around head and torso only (true, Vision's default) or the whole figure.
    public var upperBodyOnly = true
    /// People scoring below this are dropped. Default 0.25 (the detector's default).
    public var confidenceThreshold: Float = 0.25
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        try detections(outputs, mapping: mapping, model: model, labels: ["person"]).map { person in
            var box = person.boundingBox
            if upperBodyOnly {
                box = Self.upperBody(of: box, width: Double(mapping.sourceWidth), height: Double(mapping.sourceHeight))
            }
            return HumanObservation(boundingBox: box, confidence: person.confidence, upperBodyOnly: upperBodyOnly)
        }
    }

    /// The head-and-torso part of a person's box (normalised, lower-left origin) in an image of `width` × `height` pixels.
    static func upperBody(of box: NormalizedRect, width: Double, height: Double) -> NormalizedRect {
        let w = box.width * width
        let h = box.height * height
        let upper = min(h, max(0.55 * h, 1.2 * w)) / height
        return NormalizedRect(x: box.x, y: box.maxY - upper, width: box.width, height: upper)
    }
}
