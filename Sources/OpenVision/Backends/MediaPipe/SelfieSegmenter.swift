internal import CNative
import Foundation

/// MediaPipe's selfie segmentation (selfie_segmentation_cpu.pbtxt) on the wheel's model files: the
/// image stretched to the model's input (256 × 256, or 256 × 144 for the landscape model), values 0...1;
/// the one-channel output (already a probability) resized bilinearly to the image.
struct SelfieSegmenter: Sendable {
    static let generalName = "selfie_segmentation.tflite"
    static let landscapeName = "selfie_segmentation_landscape.tflite"

    let model: VisionModel

    /// The installed model (loaded once per process); throws `missingModelData` when it is not installed.
    static func installed(landscape: Bool) throws(VisionError) -> SelfieSegmenter {
        SelfieSegmenter(model: try MediaPipeModels.model(landscape ? landscapeName : generalName))
    }

    /// The person probability of every pixel of `image`, row-major, top row first.
    func mask(for image: VisionImage) throws(VisionError) -> [Float] {
        let p = model.modelDescription.preprocessing
        let input = try MediaPipeTensorInput.tensor(
            for: model, image: image, region: .fullImage(width: image.width, height: image.height),
            range: 0...1, borderZero: true)
        let outputs = try model.backend.run([input])
        guard let out = outputs.first(where: { $0.count == p.width * p.height }) else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent): expected a \(p.width)×\(p.height) mask output, "
                    + "got \(outputs.map(\.shape))")
        }
        return try Self.resizeBilinear(
            out.scalars, width: p.width, height: p.height, toWidth: image.width, toHeight: image.height)
    }

    /// `cv::resize(…, INTER_LINEAR)` of a one-channel float image (OpenCV's own, vectorised): pixel centres
    /// aligned, borders replicated.
    static func resizeBilinear(_ src: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) throws(VisionError)
        -> [Float]
    {
        guard src.count == width * height, toWidth > 0, toHeight > 0 else {
            throw VisionError(
                .invalidArgument, "mask resize: \(src.count) values for \(width)×\(height) to \(toWidth)×\(toHeight)")
        }
        var status = OV_OK
        let out = [Float](unsafeUninitializedCapacity: toWidth * toHeight) { buffer, count in
            status = src.withUnsafeBufferPointer { s in
                ov_resize_float_map(
                    s.baseAddress, Int32(width), Int32(height), buffer.baseAddress, Int32(toWidth), Int32(toHeight))
            }
            count = status == OV_OK ? toWidth * toHeight : 0
        }
        try NativeError.check(status, "mask resize")
        return out
    }
}
