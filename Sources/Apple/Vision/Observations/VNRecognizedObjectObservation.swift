import OpenVision

/// A detected object with its labels, most confident first, as Vision's.
open class VNRecognizedObjectObservation: VNDetectedObjectObservation {
    /// The labels, most confident first; `labels[0]` is the detection's class.
    public let labels: [VNClassificationObservation]

    init(_ o: RecognizedObjectObservation) {
        labels = o.labels.map(VNClassificationObservation.init)
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
