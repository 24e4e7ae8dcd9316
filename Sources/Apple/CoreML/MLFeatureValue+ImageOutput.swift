import CoreVideo
import Foundation
import OpenVision
package import OpenVisionConverters

extension MLFeatureValue {
    /// The image Core ML makes of an image output (`CoreMLModelInfo.ImageOutput`): the tensor's float values taken as
    /// pixel values, clamped to 0...255 and rounded to the nearest integer (NaN as 0), no scale or bias — a colour
    /// output's channels read in its colour order (RGB, or BGR: blue first) into a 32BGRA buffer (alpha 255), a
    /// grayscale one into a OneComponent8 buffer.
    /// The tensor is `[1, C, H, W]` (leading axes of 1 allowed); any other shape is `MLModelError.generic` naming it.
    package static func image(
        ofOutput name: String, shape: [Int], values: [Float], as output: CoreMLModelInfo.ImageOutput
    ) throws -> CVPixelBuffer {
        let image: VisionImage
        do {
            image = try VisionImage(modelOutput: name, shape: shape, values: values, as: output)
        } catch {
            throw MLModelError.generic(error.message)
        }
        return try modelOutputBuffer(of: image, gray: output.channels == 1)
    }
}
