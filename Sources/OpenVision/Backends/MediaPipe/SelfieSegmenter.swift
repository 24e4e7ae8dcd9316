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
        let input = try MediaPipeTensorInput.tensor(for: model, image: image, region: .fullImage(width: image.width, height: image.height),
                                                    range: 0...1, borderZero: true)
        let outputs = try model.backend.run([input])
        guard let out = outputs.first(where: { $0.count == p.width * p.height }) else {
            throw VisionError(.invalidModel, "\(model.url.lastPathComponent): expected a \(p.width)×\(p.height) mask output, "
                + "got \(outputs.map(\.shape))")
        }
        return Self.resizeBilinear(out.scalars, width: p.width, height: p.height, toWidth: image.width, toHeight: image.height)
    }

    /// `cv::resize(…, INTER_LINEAR)` of a one-channel float image: pixel centres aligned, borders replicated.
    static func resizeBilinear(_ src: [Float], width: Int, height: Int, toWidth: Int, toHeight: Int) -> [Float] {
        var out = [Float](repeating: 0, count: toWidth * toHeight)
        let sx = Double(width) / Double(toWidth), sy = Double(height) / Double(toHeight)
        var x0s = [Int](repeating: 0, count: toWidth), x1s = x0s, fxs = [Float](repeating: 0, count: toWidth)
        for x in 0..<toWidth {
            let f = max(0, min(Double(width - 1), (Double(x) + 0.5) * sx - 0.5))
            x0s[x] = Int(f)
            x1s[x] = min(width - 1, x0s[x] + 1)
            fxs[x] = Float(f - Double(x0s[x]))
        }
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<toHeight {
                    let f = max(0, min(Double(height - 1), (Double(y) + 0.5) * sy - 0.5))
                    let y0 = Int(f), y1 = min(height - 1, y0 + 1), fy = Float(f - Double(y0))
                    let r0 = y0 * width, r1 = y1 * width, row = y * toWidth
                    for x in 0..<toWidth {
                        let top = s[r0 + x0s[x]] + (s[r0 + x1s[x]] - s[r0 + x0s[x]]) * fxs[x]
                        let bottom = s[r1 + x0s[x]] + (s[r1 + x1s[x]] - s[r1 + x0s[x]]) * fxs[x]
                        o[row + x] = top + (bottom - top) * fy
                    }
                }
            }
        }
        return out
    }
}
