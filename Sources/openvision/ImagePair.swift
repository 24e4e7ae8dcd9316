import Foundation
import OpenVision

/// The two images of a pair command (`register`, `flow`), decoded concurrently: each decode is
/// independent and the requests read both before any work. Only the luma plane unless `color`
/// (the requests read gray; colour is for writing the warped target).
struct ImagePair {
    let first: VisionImage
    let second: VisionImage

    init(_ first: String, _ second: String, color: Bool) async throws(VisionError) {
        @Sendable func decode(_ path: String) -> Result<VisionImage, VisionError> {
            let handler = ImageRequestHandler(URL(fileURLWithPath: path))
            return Result { () throws(VisionError) in color ? try handler.image() : try handler.grayImage() }
        }
        async let a = decode(first)
        async let b = decode(second)
        let (x, y) = await (a, b)
        self.first = try x.get()
        self.second = try y.get()
    }
}
