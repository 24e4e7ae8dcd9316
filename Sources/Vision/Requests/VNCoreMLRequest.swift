import Foundation
import CoreML
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
    override open class var currentRevision: Int { VNCoreMLRequestRevision1 }

    public let model: VNCoreMLModel
    /// Default `.centerCrop`, as Vision.
    public var imageCropAndScaleOption: VNImageCropAndScaleOption = .centerCrop

    public init(model: VNCoreMLModel, completionHandler: CompletionHandler? = nil) {
        self.model = model
        super.init(completionHandler: completionHandler)
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        let visionModel = model.model.visionModel
        let fitting = imageCropAndScaleOption.native
        func detect() throws(VisionError) -> [VNObservation] {
            var request = DetectObjectsRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            return try perform(request, in: context).map(VNRecognizedObjectObservation.init)
        }
        func classify() throws(VisionError) -> [VNObservation] {
            var request = ClassifyImageRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            request.maximumObservations = 0
            return try perform(request, in: context).map(VNClassificationObservation.init)
        }
        func features() throws(VisionError) -> [VNObservation] {
            var request = RunModelRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            return try perform(request, in: context).map(VNCoreMLFeatureValueObservation.init)
        }
        // A model with image outputs (image to image): each image output as a VNPixelBufferObservation, any other
        // output as a VNCoreMLFeatureValueObservation, as Vision gives them.
        if let images = visionModel.modelDescription.coreML?.imageOutputs, !images.isEmpty {
            var request = RunModelRequest(model: visionModel)
            request.imageCropAndScaleOption = fitting
            return try perform(request, in: context).map { (o) throws(VisionError) -> VNObservation in
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
            } catch where error.code == .invalidModel {
                do {
                    let found = try classify()
                    model.kind.withLock { $0 = .classifier }
                    return found
                } catch where error.code == .invalidModel {
                    model.kind.withLock { $0 = .features }
                    return try features()
                }
            }
        }
    }
}
