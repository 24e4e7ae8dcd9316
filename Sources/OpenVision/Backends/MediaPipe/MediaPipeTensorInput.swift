internal import CNative

/// Model inputs as MediaPipe's `ImageToTensorCalculator` makes them on CPU (see ov_mediapipe.cpp): a
/// region of the image warped onto the input in 8 bits, then scaled to the model's value range.
enum MediaPipeTensorInput {
    /// The input tensor of `model` for `region` of `image`: the region's corners onto the input's corners,
    /// values in `range`, zero (`borderZero`) or replicated outside the image. The tensor's size and layout
    /// (NHWC or NCHW) are the model's.
    static func tensor(for model: VisionModel, image: VisionImage, region: MediaPipeRegion, range: ClosedRange<Float>,
                       borderZero: Bool) throws(VisionError) -> Tensor {
        let p = model.modelDescription.preprocessing
        let m = region.cropTransform(outputWidth: p.width, outputHeight: p.height).rowMajor
        var buffer = [Float](repeating: 0, count: p.width * p.height * 3)
        let count = buffer.count
        let status = buffer.withUnsafeMutableBufferPointer { out in
            Array(m.prefix(6)).withUnsafeBufferPointer { matrix in
                ov_warp_to_tensor(image.handle, matrix.baseAddress, Int32(p.width), Int32(p.height), borderZero ? 1 : 0,
                                  (range.upperBound - range.lowerBound) / 255, range.lowerBound, p.layout == .nhwc ? 1 : 0,
                                  out.baseAddress, count)
            }
        }
        try NativeError.check(status, "model input warp")
        let shape = p.layout == .nchw ? [1, 3, p.height, p.width] : [1, p.height, p.width, 3]
        return Tensor(name: model.modelDescription.inputs.first?.name ?? "input", shape: shape, scalars: buffer)
    }
}
