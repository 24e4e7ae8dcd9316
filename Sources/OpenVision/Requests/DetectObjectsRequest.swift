internal import OpenVisionConverters

/// Finds objects with a detector model (any YOLO/SSD ONNX export or Darknet YOLO), as Vision's
/// `CoreMLRequest` with an object-detection model: `RecognizedObjectObservation`s with boxes in
/// the analysed image (letterboxing and crops undone) and labels sorted by confidence.
/// Without a model it uses the built-in COCO-80 detector (Yolo-Fastest-1.1-XL, public domain, bundled
/// with OpenVision and run on ONNX Runtime), as `yolo predict` works out of the box.
public struct DetectObjectsRequest: ModelRequest, CompletionHandlingRequest {
    /// One `RecognizedObjectObservation` per finding; empty when there is none.
    public typealias Result = [RecognizedObjectObservation]

    /// The detector; nil uses the built-in COCO-80 detector (loaded once per process on first use).
    public let model: VisionModel?
    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Detections scoring below this are dropped. Default 0.25 (Ultralytics' default), except for a Core ML detector
    /// pipeline, whose own NMS threshold stands until this is set; once set, it is also the value of the pipeline's
    /// `confidenceThreshold` input. Reading it unset gives 0.25.
    public var confidenceThreshold: Float {
        get { givenConfidenceThreshold ?? Self.defaultConfidenceThreshold }
        set { givenConfidenceThreshold = newValue }
    }
    /// Overlap above which the weaker of two boxes is suppressed. Default 0.45, except for a Core ML detector pipeline,
    /// whose own NMS threshold stands until this is set; once set, it is the value of the pipeline's `iouThreshold`
    /// input (its own NMS does the suppression). Reading it unset gives 0.45.
    public var iouThreshold: Float {
        get { givenIoUThreshold ?? Self.defaultIoUThreshold }
        set { givenIoUThreshold = newValue }
    }
    /// The thresholds set (nil: unset, see `confidenceThreshold` and `iouThreshold`).
    private var givenConfidenceThreshold: Float?
    private var givenIoUThreshold: Float?
    /// The confidence threshold of models that bring none of their own: 0.25 (Ultralytics' default).
    public static let defaultConfidenceThreshold: Float = 0.25
    /// The IoU threshold of models that bring none of their own: 0.45 (Ultralytics' default).
    public static let defaultIoUThreshold: Float = 0.45
    /// Suppress overlapping boxes across classes too. Default false (per class).
    public var classAgnosticNMS: Bool = false
    /// At most this many observations, best first; 0 means no limit. Default 300.
    public var maximumObservations: Int = 300
    /// Only these class labels (or indices as strings) are reported; nil reports all.
    public var allowedLabels: Set<String>?
    /// How images fit the input; nil uses the model's default (letterbox for YOLO, stretch for Darknet).
    public var imageCropAndScaleOption: ImageCropAndScaleOption?
    /// The output layout; nil infers it from the output shapes.
    public var outputFormat: DetectionOutputFormat?
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(model: VisionModel? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.model = model
        self.completionHandler = completionHandler
    }

    /// The given model, or the built-in detector.
    public func resolvedModel() throws(VisionError) -> VisionModel {
        if let model { return model }
        return try DefaultModels.detector()
    }

    /// How images fit the model's input: `imageCropAndScaleOption` (nil: the model's default).
    public var inputFitting: ImageCropAndScaleOption? { imageCropAndScaleOption }

    /// A Core ML detector pipeline's threshold inputs take the thresholds set on the request (unset ones leave the
    /// pipeline's own).
    public func inputOverrides(for model: VisionModel) -> [String: Float] {
        guard let nms = model.modelDescription.coreML?.nms else { return [:] }
        var values: [String: Float] = [:]
        if !nms.iouThresholdInput.isEmpty, let iou = givenIoUThreshold { values[nms.iouThresholdInput] = iou }
        if !nms.confidenceThresholdInput.isEmpty, let confidence = givenConfidenceThreshold {
            values[nms.confidenceThresholdInput] = confidence
        }
        return values
    }

    /// The confidence below which `model`'s detections are dropped: the one set, else a Core ML pipeline's own NMS
    /// threshold, else 0.25.
    func confidenceThreshold(for model: VisionModel) -> Float {
        givenConfidenceThreshold ?? model.modelDescription.coreML?.nms.map { Float($0.confidenceThreshold) }
            ?? Self.defaultConfidenceThreshold
    }

    /// A Core ML model without non-maximum suppression is decoded from its float multi-array outputs only: one
    /// declaring anything else (a segmentation map of INT32 labels, a classifier's dictionary or string, an image) is
    /// no detector's, and `invalidModel` names the outputs with their Core ML types.
    static func checkDetectorOutputs(_ coreML: CoreMLModelInfo) throws(VisionError) {
        let floats: Set<String> = ["FLOAT32", "DOUBLE", "FLOAT16"]
        let other = coreML.outputs.filter { $0.type != "multiArray" || !floats.contains($0.dataType ?? "") }
        guard !other.isEmpty else { return }
        throw VisionError(
            .invalidModel,
            "no detection decoder understands this model's outputs: "
                + coreML.outputs.map { "\($0.name) \($0.typeDescription)" }.joined(separator: ", ")
                + " (a Core ML detector gives float multi-arrays, or confidence and coordinates through its "
                + "non-maximum suppression)")
    }

    /// Throws `invalidArgument` unless `confidenceThreshold` and `iouThreshold` are in 0...1 and
    /// `maximumObservations` ≥ 0.
    public func validateOptions() throws(VisionError) {
        guard (0...1).contains(confidenceThreshold), (0...1).contains(iouThreshold), maximumObservations >= 0 else {
            throw VisionError(
                .invalidArgument, "confidenceThreshold and iouThreshold must be 0...1, maximumObservations ≥ 0")
        }
    }

    /// Decodes the model's output tensors into results, in the image coordinates given by `mapping`;
    /// throws `VisionError` when the outputs do not have the shapes this request expects.
    public func results(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        try observations(fromOutputs: outputs, mapping: mapping, model: model)
    }

    /// Decodes raw detector outputs (from this model, or computed elsewhere) into observations:
    /// threshold, NMS, and mapping from input pixels back to the image described by `mapping`.
    public func observations(fromOutputs outputs: [Tensor], mapping: InputMapping) throws(VisionError) -> Result {
        try observations(fromOutputs: outputs, mapping: mapping, model: try resolvedModel())
    }

    func observations(fromOutputs outputs: [Tensor], mapping: InputMapping, model: VisionModel) throws(VisionError)
        -> Result
    {
        let coreMLNMS: DetectionOutputFormat? = model.modelDescription.coreML?.nms != nil ? .coreML : nil
        if outputFormat == nil, coreMLNMS == nil, let coreML = model.modelDescription.coreML {
            try Self.checkDetectorOutputs(coreML)
        }
        guard let format = outputFormat ?? coreMLNMS ?? DetectionOutputFormat.infer(from: outputs) else {
            throw VisionError(
                .invalidModel,
                "no detection decoder understands this model's outputs: "
                    + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", ")
                    + " (supported: Darknet YOLO, YOLOv5 [1,N,5+C], YOLOv8/11 [1,4+C,N], NMS-included [1,N,6]/[N,7], SSD boxes+scores, "
                    + "SSD DetectionOutput [1,1,N,7], YuNet cls/obj/bbox/kps, FastestDet [1,5+C,H,W])")
        }
        var labels = model.modelDescription.labels
        let p = model.modelDescription.preprocessing
        var background = false
        if format == .ssd, let columns = DetectionDecoder.ssdPair(outputs)?.scores.squeezedShape.last, columns > 1 {
            let namedBackground = ["background", "__background__", "bg"].contains(labels.first?.lowercased() ?? "")
            background = labels.count == columns - 1 || namedBackground || (labels.isEmpty && columns == 2)
            if namedBackground && labels.count == columns { labels.removeFirst() }
        }
        // DetectionOutput rows count classes from 1 (0 is the background): labels listing the background drop it.
        if format == .detectionOutput,
            ["background", "__background__", "bg"].contains(labels.first?.lowercased() ?? "")
        {
            labels.removeFirst()
        }
        var allowed: Set<Int>?
        if let allowedLabels {
            allowed = Set(allowedLabels.compactMap { name in labels.firstIndex(of: name) ?? Int(name) })
        }
        var decoder = DetectionDecoder(
            format: format, inputWidth: Float(p.width), inputHeight: Float(p.height),
            threshold: confidenceThreshold(for: model), allowedClasses: allowed)
        decoder.backgroundColumn = background
        let (candidates, classCount) = try decoder.candidates(from: outputs)
        if classCount > 0 && !labels.isEmpty && labels.count != classCount {
            throw VisionError(
                .invalidModel,
                "the model has \(classCount) classes but \(labels.count) labels"
                    + (model.modelDescription.labelsSource.map { " (from \($0))" } ?? ""))
        }
        let kept =
            format == .endToEnd || format == .coreML
            ? Array(
                candidates.sorted { $0.score > $1.score }.prefix(maximumObservations == 0 ? .max : maximumObservations))
            : NonMaximumSuppression.apply(
                candidates, iouThreshold: iouThreshold, classAgnostic: classAgnosticNMS, limit: maximumObservations)
        func name(_ index: Int) -> String { index >= 0 && index < labels.count ? labels[index] : "class\(index)" }
        return kept.map { c in
            RecognizedObjectObservation(
                boundingBox: mapping.normalizedRect(
                    x1: Double(c.x1), y1: Double(c.y1), x2: Double(c.x2), y2: Double(c.y2)),
                labels: c.classScores.map {
                    ClassificationObservation(identifier: name($0.classIndex), confidence: $0.score)
                })
        }
    }
}
