import Foundation
public import OpenVisionConverters

extension VisionImage {
    /// The image Core ML makes of a model's image output (`CoreMLModelInfo.ImageOutput`): the tensor's float values
    /// taken as pixel values, clamped to 0...255 and rounded to the nearest integer (NaN as 0), no scale or bias — a
    /// colour output's channels read in its colour order (RGB, or BGR: blue first), a grayscale one as one 8-bit
    /// component. The tensor is `[1, C, H, W]` (leading axes of 1 allowed); any other shape is `invalidModel` naming
    /// the output.
    public convenience init(
        modelOutput name: String, shape: [Int], values: [Float], as output: CoreMLModelInfo.ImageOutput
    ) throws(VisionError) {
        let channels = output.channels == 1 ? 1 : 3
        guard shape.count >= 3, shape.dropLast(3).allSatisfy({ $0 == 1 }), shape[shape.count - 3] == channels else {
            throw VisionError(
                .invalidModel,
                "image output '\(name)': the model gave shape \(shape), not [1, \(channels), height, width]")
        }
        let height = shape[shape.count - 2]
        let width = shape[shape.count - 1]
        guard (1...16384).contains(width), (1...16384).contains(height), values.count == channels * width * height
        else {
            throw VisionError(
                .invalidModel,
                "image output '\(name)': \(values.count) values of shape \(shape) are not a "
                    + "1...16384-pixel image")
        }
        let plane = width * height
        var bytes = [UInt8](repeating: 0, count: plane * channels)
        // BGR bytes (OpenVision's own order): source channel per destination byte.
        let order = channels == 1 ? [0] : output.colorOrder == "bgr" ? [0, 1, 2] : [2, 1, 0]
        values.withUnsafeBufferPointer { src in
            for (k, c) in order.enumerated() {
                let base = c * plane
                for i in 0..<plane {
                    let v = src[base + i]
                    bytes[i * channels + k] = v.isNaN ? 0 : UInt8(min(255, max(0, v.rounded(.toNearestOrEven))))
                }
            }
        }
        try self.init(
            pixels: PixelBuffer(data: Data(bytes), width: width, height: height, format: channels == 1 ? .gray8 : .bgr8)
        )
    }
}
