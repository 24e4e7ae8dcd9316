import OpenVision

/// A class label and its confidence, as Vision's.
open class VNClassificationObservation: VNObservation {
    /// The class label.
    public let identifier: String
    /// No precision/recall curves here.
    public var hasPrecisionRecallCurve: Bool { false }

    init(_ o: ClassificationObservation) {
        identifier = o.identifier
        super.init(uuid: o.uuid, confidence: o.confidence)
    }
}
