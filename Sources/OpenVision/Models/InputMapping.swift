internal import CNative

/// How source-image pixels map into a model's input: `input = source × scale + offset` per
/// axis (letterbox padding and centre crops included), and back.
public struct InputMapping: Sendable, Hashable {
    /// Input pixels per source pixel, horizontally.
    public var scaleX: Double
    /// Input pixels per source pixel, vertically.
    public var scaleY: Double
    /// Horizontal offset in input pixels (letterbox padding, or negative for a centre crop).
    public var offsetX: Double
    /// Vertical offset in input pixels (letterbox padding, or negative for a centre crop).
    public var offsetY: Double
    /// The source image size in pixels.
    public var sourceWidth: Int
    /// The source image height in pixels.
    public var sourceHeight: Int

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double, sourceWidth: Int, sourceHeight: Int) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    /// The mapping `model.makeInput` uses for an image of `width` × `height` (letterbox, crop or stretch).
    public static func fitting(
        width: Int, height: Int, into inputWidth: Int, _ inputHeight: Int,
        mode: ImageCropAndScaleOption
    ) -> InputMapping {
        let (w, h, W, H) = (Double(width), Double(height), Double(inputWidth), Double(inputHeight))
        switch mode {
        case .scaleFill:
            return InputMapping(
                scaleX: W / w, scaleY: H / h, offsetX: 0, offsetY: 0, sourceWidth: width, sourceHeight: height)
        case .scaleFit:
            let s = min(W / w, H / h)
            let nw = max(1, (w * s).rounded())
            let nh = max(1, (h * s).rounded())
            return InputMapping(
                scaleX: nw / w, scaleY: nh / h, offsetX: ((W - nw) / 2 - 0.1).rounded(),
                offsetY: ((H - nh) / 2 - 0.1).rounded(), sourceWidth: width, sourceHeight: height)
        case .centerCrop:
            let s = max(W / w, H / h)
            let cw = (W / s).rounded()
            let ch = (H / s).rounded()
            let x0 = ((w - cw) / 2).rounded(.down)
            let y0 = ((h - ch) / 2).rounded(.down)
            return InputMapping(
                scaleX: W / cw, scaleY: H / ch, offsetX: -x0 * W / cw, offsetY: -y0 * H / ch,
                sourceWidth: width, sourceHeight: height)
        }
    }

    /// A source pixel point (top-left origin) for a model-input pixel point.
    public func sourcePoint(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x - offsetX) / scaleX, (y - offsetY) / scaleY)
    }

    /// The model-input pixel point for a source pixel point (top-left origin).
    public func inputPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        (x * scaleX + offsetX, y * scaleY + offsetY)
    }

    /// A model-input pixel box (top-left origin, corners) as a normalised, lower-left box in the
    /// source image, clipped to it.
    public func normalizedRect(x1: Double, y1: Double, x2: Double, y2: Double) -> NormalizedRect {
        let a = sourcePoint(x: x1, y: y1)
        let b = sourcePoint(x: x2, y: y2)
        let w = Double(sourceWidth)
        let h = Double(sourceHeight)
        let left = min(max(min(a.x, b.x), 0), w)
        let right = min(max(max(a.x, b.x), 0), w)
        let top = min(max(min(a.y, b.y), 0), h)
        let bottom = min(max(max(a.y, b.y), 0), h)
        return NormalizedRect(x: left / w, y: 1 - bottom / h, width: (right - left) / w, height: (bottom - top) / h)
    }
}

/// Fills a model input buffer from an image with the native preprocessing.
enum ModelInputBuilder {
    static func fill(
        _ buffer: inout [Float], from image: VisionImage, preprocessing p: ModelPreprocessing,
        mode: ImageCropAndScaleOption
    ) throws(VisionError) -> InputMapping {
        guard p.mean.count == 3, p.std.count == 3 else {
            throw VisionError(.invalidArgument, "preprocessing mean and std need 3 values each")
        }
        var params = ov_preprocess_params()
        params.width = Int32(p.width)
        params.height = Int32(p.height)
        params.mode =
            switch mode {
            case .scaleFill: Int32(OV_CROP_SCALE_FILL.rawValue)
            case .scaleFit: Int32(OV_CROP_SCALE_FIT.rawValue)
            case .centerCrop: Int32(OV_CROP_CENTER.rawValue)
            }
        params.pad_value = p.padValue
        params.rgb = p.colorOrder == .rgb ? 1 : 0
        params.nhwc = p.layout == .nhwc ? 1 : 0
        params.scale = p.scale
        params.mean = (p.mean[0], p.mean[1], p.mean[2])
        params.std = (p.std[0], p.std[1], p.std[2])
        var mapping = ov_input_mapping()
        let count = buffer.count
        let status = buffer.withUnsafeMutableBufferPointer {
            ov_preprocess(image.handle, &params, $0.baseAddress, count, &mapping)
        }
        try NativeError.check(status, "preprocessing")
        return InputMapping(
            scaleX: Double(mapping.scale_x), scaleY: Double(mapping.scale_y), offsetX: Double(mapping.offset_x),
            offsetY: Double(mapping.offset_y), sourceWidth: image.width, sourceHeight: image.height)
    }
}
