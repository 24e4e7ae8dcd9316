internal import CNative
import Foundation

/// Model inputs as MediaPipe's `ImageToTensorCalculator` makes them on CPU (`ov_preprocess_warp`): a region of the
/// image (rotated; letterboxed by `MediaPipeRegion.keepingAspectRatio`) warped onto the input in 8 bits, then scaled
/// to the model's value range. The one tensor input of the MediaPipe pipelines.
enum MediaPipeTensorInput {
    /// The model's input size (width, height) and whether it is NHWC, from its first input's shape.
    static func inputGeometry(of model: VisionModel) throws(VisionError) -> (width: Int, height: Int, nhwc: Bool) {
        let p = model.modelDescription.preprocessing
        guard let input = model.modelDescription.inputs.first, input.shape.count == 4,
            input.shape[3] == 3 || input.shape[1] == 3
        else {
            let shape = model.modelDescription.inputs.first?.description ?? "none"
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent) does not take an image (its input is \(shape)); "
                    + "expected [1, H, W, 3] or [1, 3, H, W]")
        }
        return (p.width, p.height, p.layout == .nhwc)
    }

    /// The input tensor of `model` for `region` of `image`: the region's corners onto the input's corners,
    /// values in `range`, zero (`borderZero`) or replicated outside the image. The tensor's size and layout
    /// (NHWC or NCHW) are the model's.
    static func tensor(
        for model: VisionModel, image: VisionImage, region: MediaPipeRegion, range: ClosedRange<Float>,
        borderZero: Bool
    ) throws(VisionError) -> Tensor {
        let (w, h, nhwc) = try inputGeometry(of: model)
        let m = inverseAffine(region.cropTransform(outputWidth: w, outputHeight: h).rowMajor)
        return try warp(
            image, tensorToImage: m, width: w, height: h, nhwc: nhwc, range: range, borderReplicate: !borderZero,
            inputName: model.modelDescription.inputs.first?.name ?? "input")
    }

    /// The inverse (output pixel → image pixel, 3 × 3 row-major) of the affine map `m` (image → output, row-major,
    /// last row 0 0 1), computed operation for operation as `cv::warpAffine` inverts a forward map, so that the
    /// warp (done with `WARP_INVERSE_MAP`) samples exactly the pixels a forward `cv::warpAffine` would. A singular
    /// map gives the zero matrix, which `ov_preprocess_warp` rejects.
    static func inverseAffine(_ m: [Double]) -> [Double] {
        var d = m[0] * m[4] - m[1] * m[3]
        d = d != 0 ? 1 / d : 0
        let a11 = m[4] * d
        let a22 = m[0] * d
        let a12 = m[1] * -d
        let a21 = m[3] * -d
        let b1 = -a11 * m[2] - a12 * m[5]
        let b2 = -a21 * m[2] - a22 * m[5]
        return [a11, a12, b1, a21, a22, b2, 0, 0, 1]
    }

    /// `image` sampled into a `width` × `height` tensor (NHWC or NCHW) through `tensorToImage` (3 × 3 row-major, tensor
    /// pixel → image pixel) by `ov_preprocess_warp`: bilinear on 8-bit pixels, zero or replicated outside the image,
    /// values mapped linearly from 0...255 to `range`.
    /// The longest image side `warp` samples: OpenCV's remap, under its warps, takes images below 32767 (SHRT_MAX)
    /// pixels a side and asserts otherwise.
    static let maximumImageSide = 32766

    /// Throws `invalidImage` for an image `warp` cannot sample (a side over `maximumImageSide`).
    static func checkSize(_ image: VisionImage) throws(VisionError) {
        guard image.width <= maximumImageSide, image.height <= maximumImageSide else {
            throw VisionError(
                .invalidImage,
                "the image is \(image.width)×\(image.height) pixels; the MediaPipe models' "
                    + "input sampling takes at most \(maximumImageSide) pixels a side")
        }
    }

    static func warp(
        _ image: VisionImage, tensorToImage matrix: [Double], width w: Int, height h: Int, nhwc: Bool,
        range: ClosedRange<Float>, borderReplicate: Bool, inputName: String
    ) throws(VisionError) -> Tensor {
        try checkSize(image)
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
                ov_preprocess_warp(
                    image.handle, m.baseAddress, borderReplicate ? 1 : 0, &params, out.baseAddress, count)
            }
        }
        try NativeError.check(status, "preprocessing")
        return Tensor(name: inputName, shape: nhwc ? [1, h, w, 3] : [1, 3, h, w], scalars: buffer)
    }
}
