import OpenVision

/// An image-valued result (a map or a flow field), as Vision's: `pixelBuffer` as an 8-bit image of the
/// first channel (0...1 → 0...255), and the exact Float32 values in `values`.
open class VNPixelBufferObservation: VNObservation {
    public let featureName: String?
    /// The exact values (OpenVision's `PixelBufferObservation`): width, height, channels, Float32 data.
    public let values: PixelBufferObservation

    init(_ o: PixelBufferObservation) {
        featureName = o.featureName
        values = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The first channel as an 8-bit gray image.
    public var pixelBuffer: CVPixelBuffer {
        get throws { try values.makeImage() }
    }
}
