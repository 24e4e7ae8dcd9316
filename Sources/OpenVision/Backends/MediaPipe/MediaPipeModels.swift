internal import CNative
import Foundation
import Synchronization

/// MediaPipe's TFLite models (from the pinned `mediapipe==0.10.14` wheel, installed by scripts/setup into
/// the models folder), found through `ModelLocator` and loaded once per process.
enum MediaPipeModels {
    static let palmDetectionFull = "palm_detection_full.tflite"
    static let palmDetectionLite = "palm_detection_lite.tflite"
    static let handLandmarkFull = "hand_landmark_full.tflite"
    static let handLandmarkLite = "hand_landmark_lite.tflite"
    static let faceShortRange = "face_detection_short_range.tflite"
    static let faceFullRange = "face_detection_full_range_sparse.tflite"

    private static let cache = Mutex<[String: VisionModel]>([:])

    /// The model `name` (a file name in the models folder, or a path), loaded once.
    static func model(_ name: String) throws(VisionError) -> VisionModel {
        try cache.withLock { models throws(VisionError) -> VisionModel in
            if let model = models[name] { return model }
            guard let url = ModelLocator.find(name) else {
                throw VisionError(.missingModelData, "the MediaPipe model \(name) is not installed in "
                    + ModelLocator.searchPaths.map(\.path).joined(separator: ", ") + "; run scripts/setup (it extracts the "
                    + "models of the pinned mediapipe 0.10.14 wheel)")
            }
            let model = try VisionModel(contentsOf: url)
            models[name] = model
            return model
        }
    }
}

/// Builds a MediaPipe model's input as `ImageToTensorCalculator` does on the CPU: a region of the image
/// (rotated, letterboxed) sampled bilinearly to the input size, pixel values mapped to `range`.
enum MediaPipeInput {
    /// The model's input size (width, height) and whether it is NHWC, from its first input's shape.
    static func inputGeometry(of model: VisionModel) throws(VisionError) -> (width: Int, height: Int, nhwc: Bool) {
        let p = model.modelDescription.preprocessing
        guard let input = model.modelDescription.inputs.first, input.shape.count == 4,
              input.shape[3] == 3 || input.shape[1] == 3 else {
            let shape = model.modelDescription.inputs.first?.description ?? "none"
            throw VisionError(.invalidModel, "\(model.url.lastPathComponent) does not take an image (its input is \(shape)); "
                + "expected [1, H, W, 3] or [1, 3, H, W]")
        }
        return (p.width, p.height, p.layout == .nhwc)
    }

    /// The input tensor for `sampling` of `image`, values mapped linearly from 0...255 to `range`.
    static func tensor(for model: VisionModel, image: VisionImage, sampling: RegionSampling, range: ClosedRange<Float>,
                       borderReplicate: Bool) throws(VisionError) -> Tensor {
        let (w, h, nhwc) = try inputGeometry(of: model)
        return try warp(image, tensorToImage: sampling.inputToImage, width: w, height: h, nhwc: nhwc, range: range,
                        borderReplicate: borderReplicate, inputName: model.modelDescription.inputs.first?.name ?? "input")
    }

    /// `image` sampled into a `width` × `height` tensor (NHWC or NCHW) through `tensorToImage` (3 × 3 row-major, tensor
    /// pixel → image pixel) by `ov_preprocess_warp`: bilinear on 8-bit pixels, zero or replicated outside the image,
    /// values mapped linearly from 0...255 to `range`.
    static func warp(_ image: VisionImage, tensorToImage matrix: [Double], width w: Int, height h: Int, nhwc: Bool,
                     range: ClosedRange<Float>, borderReplicate: Bool, inputName: String) throws(VisionError) -> Tensor {
        // range = pixel × scale − mean: [0, 1] is 1/255 and 0, [-1, 1] is 2/255 and 1.
        var params = ov_preprocess_params()
        params.width = Int32(w)
        params.height = Int32(h)
        params.rgb = 1
        params.nhwc = nhwc ? 1 : 0
        params.scale = (range.upperBound - range.lowerBound) / 255
        params.mean = (-range.lowerBound, -range.lowerBound, -range.lowerBound)
        params.std = (1, 1, 1)
        var buffer = [Float](repeating: 0, count: w * h * 3)
        let count = buffer.count
        let status = matrix.withUnsafeBufferPointer { m in
            buffer.withUnsafeMutableBufferPointer { out in
                ov_preprocess_warp(image.handle, m.baseAddress, borderReplicate ? 1 : 0, &params, out.baseAddress, count)
            }
        }
        try NativeError.check(status, "preprocessing")
        return Tensor(name: inputName, shape: nhwc ? [1, h, w, 3] : [1, 3, h, w], scalars: buffer)
    }
}
