import CoreGraphics
import CoreVideo
import Foundation
import OpenVision
import Testing
import VideoToolbox

/// `VTCreateCGImageFromCVPixelBuffer` as CoreMLHelpers calls it: the buffer's pixels as a `CGImage`, and an unreadable
/// pixel format refused with VideoToolbox's code and no image.
@Suite struct VTCreateCGImageTests {
    @Test func aBGRABufferBecomesItsImage() throws {
        var made: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, 30, 20, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let row = CVPixelBufferGetBytesPerRow(buffer)
        // Pixel (3, 2) = B 10, G 20, R 30, A 255.
        (base + 2 * row + 3 * 4).copyMemory(from: [UInt8(10), 20, 30, 255], byteCount: 4)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)

        var image: CGImage?
        #expect(VTCreateCGImageFromCVPixelBuffer(buffer, options: nil, imageOut: &image) == 0)
        let cgImage = try #require(image)
        #expect(cgImage.width == 30 && cgImage.height == 20)
        let rgb = try cgImage.visionImage().rgbData()
        #expect(Array(rgb[(2 * 30 + 3) * 3..<(2 * 30 + 3) * 3 + 3]) == [30, 20, 10])
    }

    @Test func anUnreadableFormatIsRefused() throws {
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_OneComponent32Float, nil, &made) == kCVReturnSuccess)
        var image: CGImage?
        #expect(
            VTCreateCGImageFromCVPixelBuffer(try #require(made), options: nil, imageOut: &image)
                == kVTPixelTransferNotSupportedErr)
        #expect(image == nil)
    }
}
