import CoreML
import Foundation
import OpenVision

/// Vision's request running a Core ML model (here any OpenVision model): a detector gives
/// `VNRecognizedObjectObservation`s, a classifier `VNClassificationObservation`s (every class, best first),
/// a Core ML model with image outputs `VNPixelBufferObservation`s (one per image output, named by `featureName`),
/// anything else `VNCoreMLFeatureValueObservation`s — as Vision decides from the model's outputs.
open class VNCoreMLRequest: VNImageBasedRequest {
    /// Apple's revision 1 (`VNCoreMLRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNCoreMLRequestRevision1 }
    /// Vision's current revision, `VNCoreMLRequestRevision1`.
    override open class var currentRevision: Int { VNCoreMLRequestRevision1 }

    /// The model the request runs.
    public let model: VNCoreMLModel
    /// Default `.centerCrop`, as Vision. The `…Rotate90CCW` options turn the image 90° counter-clockwise before fitting
    /// it (a portrait image into a landscape input); object boxes are given back in the image's own coordinates.
    public var imageCropAndScaleOption: VNImageCropAndScaleOption = .centerCrop

    /// A request running `model`; what it returns is decided from the model's outputs when it first runs.
    public init(model: VNCoreMLModel, completionHandler: CompletionHandler? = nil) {
        self.model = model
        super.init(completionHandler: completionHandler)
    }

    override func observations(in outerContext: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        let visionModel = model.model.visionModel
        let fitting = imageCropAndScaleOption.native
        // The rotating options: the model sees the region of interest turned 90° counter-clockwise, and boxes come
        // back in the region's own coordinates (a point (u, v) the model saw is (v, 1 − u) there, lower-left origin).
        var context = outerContext
        var region: NormalizedRect?
        var unturn: (NormalizedRect) -> NormalizedRect = { $0 }
        if imageCropAndScaleOption.rotatesCounterClockwise && !planning.active {
            context = ImageAnalysisContext(image: try outerContext.image(for: nativeRegion).oriented(.left))
            region = .fullImage
            unturn = { r in NormalizedRect(x: r.minY, y: 1 - r.maxX, width: r.height, height: r.width) }
        }
        func detect() throws(VisionError) -> [VNObservation] {
            var request = DetectObjectsRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            if let nms = visionModel.modelDescription.coreML?.nms {
                // The pipeline's own thresholds, or the feature provider's (the dice sample's ThresholdProvider).
                func value(_ input: String, default fallback: Double) -> Float {
                    guard !input.isEmpty, let given = model.featureProvider?.featureValue(for: input),
                        given.type == .double || given.type == .int64
                    else { return Float(fallback) }
                    return Float(given.doubleValue)
                }
                request.iouThreshold = value(nms.iouThresholdInput, default: nms.iouThreshold)
                request.confidenceThreshold = value(nms.confidenceThresholdInput, default: nms.confidenceThreshold)
            }
            return try perform(request, in: context, region: region).map { o in
                var o = o
                o.boundingBox = unturn(o.boundingBox)
                return VNRecognizedObjectObservation(o)
            }
        }
        func classify() throws(VisionError) -> [VNObservation] {
            var request = ClassifyImageRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            request.maximumObservations = 0
            return try perform(request, in: context, region: region).map(VNClassificationObservation.init)
        }
        func features() throws(VisionError) -> [VNObservation] {
            var request = RunModelRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            return try perform(request, in: context, region: region).map(VNCoreMLFeatureValueObservation.init)
        }
        // A model with image outputs (image to image): each image output as a VNPixelBufferObservation, any other
        // output as a VNCoreMLFeatureValueObservation, as Vision gives them.
        if let images = visionModel.modelDescription.coreML?.imageOutputs, !images.isEmpty {
            var request = RunModelRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            return try perform(request, in: context, region: region).map { (o) throws(VisionError) -> VNObservation in
                guard let output = images[o.featureName] else { return VNCoreMLFeatureValueObservation(o) }
                return try VNPixelBufferObservation(o, output: output)
            }
        }
        switch model.kind.withLock({ $0 }) {
        case .detector: return try detect()
        case .classifier: return try classify()
        case .features: return try features()
        case nil:
            // First run: a detector if a detection decoder reads the outputs, else a classifier if one
            // class-score vector comes out, else raw features. Remembered for the model.
            do {
                let found = try detect()
                model.kind.withLock { $0 = .detector }
                return found
            } catch  where error.code == .invalidModel {
                do {
                    let found = try classify()
                    model.kind.withLock { $0 = .classifier }
                    return found
                } catch  where error.code == .invalidModel {
                    model.kind.withLock { $0 = .features }
                    return try features()
                }
            }
        }
    }
}
