import CoreML
import OpenVision

/// A raw model output, as Vision's (a `VNCoreMLRequest` whose model is neither a classifier nor a detector).
open class VNCoreMLFeatureValueObservation: VNObservation {
    /// The output's name in the model.
    public let featureName: String
    /// The output's values, as a multi-array of the output's shape.
    public let featureValue: MLFeatureValue

    init(_ o: FeatureValueObservation) {
        featureName = o.featureName
        featureValue = MLFeatureValue(multiArray: MLMultiArray(shape: o.shape, values: o.values))
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
