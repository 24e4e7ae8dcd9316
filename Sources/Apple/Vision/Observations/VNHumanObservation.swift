import OpenVision

/// A person, as Vision's (`VNDetectHumanRectanglesRequest`).
open class VNHumanObservation: VNDetectedObjectObservation {
    /// True when the box covers head and torso only.
    public let upperBodyOnly: Bool

    init(_ o: HumanObservation) {
        upperBodyOnly = o.upperBodyOnly
        super.init(uuid: o.uuid, confidence: o.confidence, boundingBox: o.boundingBox)
    }
}
