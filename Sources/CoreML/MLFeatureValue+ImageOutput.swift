import Foundation
import OpenVision
package import OpenVisionConverters

extension MLFeatureValue {
    /// The image Core ML makes of an image output (`CoreMLModelInfo.ImageOutput`): OpenVision's
    /// `VisionImage(modelOutput:shape:values:as:)`, its error as `MLModelError.generic`.
    package static func image(ofOutput name: String, shape: [Int], values: [Float], as output: CoreMLModelInfo.ImageOutput) throws -> VisionImage {
        do {
            return try VisionImage(modelOutput: name, shape: shape, values: values, as: output)
        } catch {
            throw MLModelError.generic(error.message)
        }
    }
}
