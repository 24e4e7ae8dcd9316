import CoreML
import Foundation
import OpenVision
import Synchronization

/// Vision's wrapper of a Core ML model (`VNCoreMLModel(for:)`): share one per model. What the model is
/// (a detector, a classifier, or anything else) is found from its outputs the first time it runs.
open class VNCoreMLModel {
    /// The Core ML model this wraps.
    public let model: MLModel
    /// Vision's `inputImageFeatureName` (the model's first input).
    public var inputImageFeatureName: String
    /// Vision's `featureProvider`: values for the model's inputs other than the image. A detector pipeline's
    /// threshold inputs (`iouThreshold` / `confidenceThreshold`, as its non-maximum suppression names them) take the
    /// provider's numbers; without a value the model's own defaults apply. Other inputs are not read here (the image
    /// is the only other input OpenVision feeds).
    public var featureProvider: MLFeatureProvider?

    enum Kind { case detector, classifier, features }
    let kind = Mutex<Kind?>(nil)

    /// Wraps `model`; never throws here (Apple's throws for models Vision cannot use; here that shows when a request
    /// runs).
    public init(for model: MLModel) throws {
        self.model = model
        inputImageFeatureName = model.visionModel.modelDescription.inputs.first?.name ?? "image"
    }
}
