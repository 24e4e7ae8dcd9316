import CoreML
import Foundation
import OpenVision
import Synchronization

/// Vision's wrapper of a Core ML model (`VNCoreMLModel(for:)`): share one per model. What the model is
/// (a detector, a classifier, or anything else) is found from its outputs the first time it runs.
open class VNCoreMLModel {
    public let model: MLModel
    /// Vision's `inputImageFeatureName` (the model's first input).
    public var inputImageFeatureName: String
    /// Vision's `featureProvider` (extra inputs); not used here.
    public var featureProvider: MLFeatureProvider?

    enum Kind { case detector, classifier, features }
    let kind = Mutex<Kind?>(nil)

    public init(for model: MLModel) throws {
        self.model = model
        inputImageFeatureName = model.visionModel.modelDescription.inputs.first?.name ?? "image"
    }
}
