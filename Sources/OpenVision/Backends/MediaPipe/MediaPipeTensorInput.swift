import Foundation

/// Model inputs as MediaPipe's `ImageToTensorCalculator` makes them on CPU (`ov_preprocess_warp`, as for
/// hands and BlazeFace): a region of the image warped onto the input in 8 bits, then scaled to the model's
/// value range.
enum MediaPipeTensorInput {
    /// The input tensor of `model` for `region` of `image`: the region's corners onto the input's corners,
    /// values in `range`, zero (`borderZero`) or replicated outside the image. The tensor's size and layout
    /// (NHWC or NCHW) are the model's.
    static func tensor(for model: VisionModel, image: VisionImage, region: MediaPipeRegion, range: ClosedRange<Float>,
                       borderZero: Bool) throws(VisionError) -> Tensor {
        let p = model.modelDescription.preprocessing
        let m = inverseAffine(region.cropTransform(outputWidth: p.width, outputHeight: p.height).rowMajor)
        return try MediaPipeInput.warp(image, tensorToImage: m, width: p.width, height: p.height, nhwc: p.layout == .nhwc,
                                       range: range, borderReplicate: !borderZero,
                                       inputName: model.modelDescription.inputs.first?.name ?? "input")
    }

    /// The inverse (output pixel → image pixel, 3 × 3 row-major) of the affine map `m` (image → output, row-major,
    /// last row 0 0 1), computed operation for operation as `cv::warpAffine` inverts a forward map, so that the
    /// warp (done with `WARP_INVERSE_MAP`) samples exactly the pixels a forward `cv::warpAffine` would. A singular
    /// map gives the zero matrix, which `ov_preprocess_warp` rejects.
    static func inverseAffine(_ m: [Double]) -> [Double] {
        var d = m[0] * m[4] - m[1] * m[3]
        d = d != 0 ? 1 / d : 0
        let a11 = m[4] * d, a22 = m[0] * d
        let a12 = m[1] * -d, a21 = m[3] * -d
        let b1 = -a11 * m[2] - a12 * m[5]
        let b2 = -a21 * m[2] - a22 * m[5]
        return [a11, a12, b1, a21, a22, b2, 0, 0, 1]
    }
}
