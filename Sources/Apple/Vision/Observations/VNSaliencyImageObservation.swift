import OpenVision

/// A saliency heat map (68 × 68) and its salient regions, as Vision's.
open class VNSaliencyImageObservation: VNPixelBufferObservation {
    /// The salient regions, most confident first; nil when the request gives none.
    public let salientObjects: [VNRectangleObservation]?

    init(_ o: SaliencyImageObservation) throws(VisionError) {
        salientObjects = o.salientObjects.map(VNRectangleObservation.init)
        try super.init(o.heatMap)
    }
}
