import CoreML
import OpenVision
internal import OpenVisionConverters

/// An image-valued result, as Vision's: a map or a flow field (`pixelBuffer` an 8-bit image of the first channel,
/// 0...1 → 0...255; the exact Float32 values in `values`), or a Core ML model's image output from `VNCoreMLRequest`
/// (`pixelBuffer` the image Core ML makes of it, `featureName` the output's name).
open class VNPixelBufferObservation: VNObservation {
    public let featureName: String?
    /// The exact values (OpenVision's `PixelBufferObservation`): width, height, channels, Float32 data. For a Core ML
    /// image output, the model's values (0...255) with the channels in the output's colour order.
    public let values: PixelBufferObservation
    /// A Core ML image output's image.
    private let image: VisionImage?

    init(_ o: PixelBufferObservation) {
        featureName = o.featureName
        values = o
        image = nil
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// A Core ML image output (`CoreMLModelInfo.ImageOutput`) from its `[1, C, H, W]` tensor.
    init(_ o: FeatureValueObservation, output: CoreMLModelInfo.ImageOutput) throws(VisionError) {
        let image: VisionImage
        do {
            image = try MLFeatureValue.image(ofOutput: o.featureName, shape: o.shape, values: o.values, as: output)
        } catch {
            throw VisionError(.invalidModel, "\(error)")
        }
        // The planes [C, H, W] interleaved as [H, W, C].
        let c = o.shape[o.shape.count - 3], plane = image.width * image.height
        var interleaved = [Float](repeating: 0, count: o.values.count)
        for k in 0..<c {
            for i in 0..<plane { interleaved[i * c + k] = o.values[k * plane + i] }
        }
        featureName = o.featureName
        values = try PixelBufferObservation(width: image.width, height: image.height, channels: c, values: interleaved,
                                            featureName: o.featureName, confidence: o.confidence, uuid: o.uuid)
        self.image = image
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The image: a Core ML image output's own (8-bit colour or gray); else the first channel as an 8-bit gray image.
    public var pixelBuffer: CVPixelBuffer {
        get throws {
            if let image { return image }
            return try values.makeImage()
        }
    }
}
