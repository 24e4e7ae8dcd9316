/// How pixels become a model's input tensor: `(pixel × scale − mean) / std` per channel, in
/// `colorOrder`, laid out as `layout`. Every default is Ultralytics' YOLO convention.
public struct ModelPreprocessing: Sendable, Hashable, Codable {
    /// Channel layout of the input tensor.
    public enum Layout: String, Sendable, Hashable, Codable {
        /// Channels first: `[N, C, H, W]` (ONNX and Core ML exports).
        case nchw
        /// Channels last: `[N, H, W, C]` (TFLite models).
        case nhwc
    }
    /// Channel order of the input tensor.
    public enum ColorOrder: String, Sendable, Hashable, Codable {
        /// Red, green, blue (most models).
        case rgb
        /// Blue, green, red (Caffe and OpenCV-trained models, some Core ML files).
        case bgr
    }

    /// Input width and height in pixels.
    public var width: Int
    /// Input height in pixels.
    public var height: Int
    /// Default `.nchw`.
    public var layout: Layout = .nchw
    /// Default `.rgb`.
    public var colorOrder: ColorOrder = .rgb
    /// Pixel multiplier. Default 1/255.
    public var scale: Float = 1.0 / 255
    /// Per-channel mean subtracted after scaling. Default 0.
    public var mean: [Float] = [0, 0, 0]
    /// Per-channel divisor after subtracting the mean. Default 1.
    public var std: [Float] = [1, 1, 1]
    /// Default fitting of images to the input; requests may override. Default `.scaleFit`.
    public var cropAndScale: ImageCropAndScaleOption = .scaleFit
    /// Letterbox padding value (0...255). Default 114, as Ultralytics.
    public var padValue: Float = 114

    /// Preprocessing for a `width` × `height` input, every other property at its default.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
