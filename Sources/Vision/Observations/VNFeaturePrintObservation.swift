import OpenVision

/// An image's feature vector, as Vision's.
open class VNFeaturePrintObservation: VNObservation {
    let native: FeaturePrintObservation
    public var data: [Float] { native.data }
    public var elementCount: Int { native.elementCount }

    init(_ o: FeaturePrintObservation) {
        native = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The distance to another feature print (Vision's `computeDistance(_:to:)` writes it to a pointer; this returns it).
    public func computeDistance(to other: VNFeaturePrintObservation) throws -> Float {
        do { return try native.distance(to: other.native) } catch { throw VNError(error) }
    }
}
