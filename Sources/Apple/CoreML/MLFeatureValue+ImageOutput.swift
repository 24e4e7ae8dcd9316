import Foundation
import CoreVideo
import OpenVision

extension MLFeatureValue {
    /// The image Core ML makes of an image output (`CoreMLModelInfo.ImageOutput`): the tensor's float values taken as
    /// pixel values, clamped to 0...255 and rounded to the nearest integer (NaN as 0), no scale or bias — a colour
    /// output's channels read in its colour order (RGB, or BGR: blue first) into a 32BGRA buffer (alpha 255), a
    /// grayscale one into a OneComponent8 buffer.
    /// The tensor is `[1, C, H, W]` (leading axes of 1 allowed); any other shape is `MLModelError.generic` naming it.
    package static func image(ofOutput name: String, shape: [Int], values: [Float], as output: CoreMLModelInfo.ImageOutput) throws -> CVPixelBuffer {
        let channels = output.channels == 1 ? 1 : 3
        guard shape.count >= 3, shape.dropLast(3).allSatisfy({ $0 == 1 }), shape[shape.count - 3] == channels else {
            throw MLModelError.generic("image output '\(name)': the model gave shape \(shape), not [1, \(channels), height, width]")
        }
        let height = shape[shape.count - 2], width = shape[shape.count - 1]
        guard (1...16384).contains(width), (1...16384).contains(height), values.count == channels * width * height else {
            throw MLModelError.generic("image output '\(name)': \(values.count) values of shape \(shape) are not a 1...16384-pixel image")
        }
        let plane = width * height
        var made: CVPixelBuffer?
        let format = channels == 1 ? kCVPixelFormatType_OneComponent8 : kCVPixelFormatType_32BGRA
        guard CVPixelBufferCreate(kCFAllocatorDefault, width, height, format, nil, &made) == kCVReturnSuccess,
              let buffer = made else {
            throw MLModelError.generic("image output '\(name)': cannot make a \(width) × \(height) pixel buffer")
        }
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
        let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer), step = channels == 1 ? 1 : 4
        // BGR(A) bytes: source channel per destination byte.
        let order = channels == 1 ? [0] : output.colorOrder == "bgr" ? [0, 1, 2] : [2, 1, 0]
        values.withUnsafeBufferPointer { src in
            for (k, c) in order.enumerated() {
                let plane0 = c * plane
                for i in 0..<plane {
                    let v = src[plane0 + i]
                    base[(i / width) * bytesPerRow + (i % width) * step + k] =
                        v.isNaN ? 0 : UInt8(min(255, max(0, v.rounded(.toNearestOrEven))))
                }
            }
            if channels != 1 {
                for i in 0..<plane { base[(i / width) * bytesPerRow + (i % width) * 4 + 3] = 255 }
            }
        }
        return buffer
    }
}
