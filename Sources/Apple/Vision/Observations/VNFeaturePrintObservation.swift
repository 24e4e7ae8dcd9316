import OpenVision

/// An image's feature vector, as Vision's.
open class VNFeaturePrintObservation: VNObservation {
    let native: FeaturePrintObservation
    /// The feature vector.
    public var data: [Float] { native.data }
    /// The vector's length.
    public var elementCount: Int { native.elementCount }

    init(_ o: FeaturePrintObservation) {
        native = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The distance to another feature print, returned (this module's form).
    public func computeDistance(to other: VNFeaturePrintObservation) throws -> Float {
        do { return Float(try native.distance(to: other.native)) } catch { throw VNError(error) }
    }

    /// The distance to another feature print, written to `outDistance` (Vision's `computeDistance(_:to:)`, as app code
    /// calls it: `var distance = Float(0); try a.computeDistance(&distance, to: b)`). Throws as `computeDistance(to:)`.
    public func computeDistance(_ outDistance: UnsafeMutablePointer<Float>, to featurePrint: VNFeaturePrintObservation)
        throws
    {
        outDistance.pointee = try computeDistance(to: featurePrint)
    }
}
