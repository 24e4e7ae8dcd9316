import CoreML
import CoreVideo
import OpenVision
internal import OpenVisionConverters

/// An image-valued result, as Vision's: a map or a flow field (`pixelBuffer` its Float32 values, OneComponent32Float
/// or TwoComponent32Float, as `values`), or a Core ML model's image output from `VNCoreMLRequest` (`pixelBuffer` the
/// image Core ML makes of it, 32BGRA or OneComponent8; `featureName` the output's name).
open class VNPixelBufferObservation: VNObservation {
    /// The Core ML output's name for a `VNCoreMLRequest` image output; nil otherwise.
    public let featureName: String?
    /// The exact values (OpenVision's `PixelBufferObservation`): width, height, channels, Float32 data. For a Core ML
    /// image output, the model's values (0...255) with the channels in the output's colour order.
    public let values: PixelBufferObservation
    /// The image, made once when the result is (Vision's `pixelBuffer` is a plain property).
    private let image: CVPixelBuffer

    init(_ o: PixelBufferObservation) throws(VisionError) {
        featureName = o.featureName
        values = o
        image = try CVPixelBuffer.make(o)
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// A Core ML image output (`CoreMLModelInfo.ImageOutput`) from its `[1, C, H, W]` tensor.
    init(_ o: FeatureValueObservation, output: CoreMLModelInfo.ImageOutput) throws(VisionError) {
        let image: CVPixelBuffer
        do {
            image = try MLFeatureValue.image(ofOutput: o.featureName, shape: o.shape, values: o.values, as: output)
        } catch {
            throw VisionError(.invalidModel, "\(error)")
        }
        // The planes [C, H, W] interleaved as [H, W, C].
        let width = CVPixelBufferGetWidth(image)
        let height = CVPixelBufferGetHeight(image)
        let c = o.shape[o.shape.count - 3]
        let plane = width * height
        var interleaved = [Float](repeating: 0, count: o.values.count)
        for k in 0..<c {
            for i in 0..<plane { interleaved[i * c + k] = o.values[k * plane + i] }
        }
        featureName = o.featureName
        values = try PixelBufferObservation(
            width: width, height: height, channels: c, values: interleaved,
            featureName: o.featureName, confidence: o.confidence, uuid: o.uuid)
        self.image = image
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The image: a Core ML image output's own (32BGRA or OneComponent8); else the values, OneComponent32Float or
    /// TwoComponent32Float (other channel counts: the first channel as an 8-bit image, 0...1 → 0...255). Made with the
    /// result, as Vision's.
    public var pixelBuffer: CVPixelBuffer { image }
}
