import Foundation
import CoreVideo
import OpenVision
package import OpenVisionConverters

extension MLFeatureValue {
    /// The image Core ML makes of an image output (`CoreMLModelInfo.ImageOutput`): OpenVision's
    /// `VisionImage(modelOutput:shape:values:as:)` (values clamped to 0...255 and rounded, channels in the output's
    /// colour order) in a 32BGRA pixel buffer, a grayscale one in a OneComponent8 buffer; its error as
    /// `MLModelError.generic`.
    package static func image(ofOutput name: String, shape: [Int], values: [Float], as output: CoreMLModelInfo.ImageOutput) throws -> CVPixelBuffer {
        let image: VisionImage
        do {
            image = try VisionImage(modelOutput: name, shape: shape, values: values, as: output)
        } catch {
            throw MLModelError.generic(error.message)
        }
        return try pixelBuffer(of: image, format: output.channels == 1 ? kCVPixelFormatType_OneComponent8 : kCVPixelFormatType_32BGRA)
    }
}
