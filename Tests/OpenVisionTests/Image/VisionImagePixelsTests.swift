import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct VisionImagePixelsTests {
    /// Every writable format round-trips through `VisionImage(pixels:)`: the same RGB back, alpha 255.
    @Test(arguments: PixelFormat.allCases.filter { $0 != .nv12 })
    func pixelsRoundTrip(_ format: PixelFormat) throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg")).resized(width: 33, height: 17)
        let pixels = try image.pixels(in: format)
        #expect(pixels.format == format && pixels.bytesPerRow == 33 * format.bytesPerPixel)
        let back = try VisionImage(pixels: pixels)
        if format == .gray8 {
            // Gray is the luma: each RGB byte of the back image equal to it.
            #expect(Array(back.rgbData().prefix(3)) == [UInt8](repeating: pixels.data[0], count: 3))
        } else {
            #expect(back.rgbData() == image.rgbData())
        }
        if let alpha = [PixelFormat.rgba8: 3, .bgra8: 3, .argb8: 0][format] {
            #expect(stride(from: alpha, to: pixels.data.count, by: 4).allSatisfy { pixels.data[$0] == 255 })
        }
    }

    /// Rows of a larger stride: the padding is left alone; too small a destination is an error.
    @Test func copyPixelsIntoPaddedRows() throws {
        let image = try VisionImage(
            pixels: PixelBuffer(data: Data([10, 20, 30, 40, 50, 60]), width: 2, height: 1, format: .rgb8))
        var memory = [UInt8](repeating: 7, count: 12)
        try memory.withUnsafeMutableBytes { try image.copyPixels(into: $0, format: .bgra8, bytesPerRow: 12) }
        #expect(memory == [30, 20, 10, 255, 60, 50, 40, 255, 7, 7, 7, 7])
        #expect(throws: VisionError.self) {
            try memory.withUnsafeMutableBytes {
                try image.copyPixels(
                    into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<7]), format: .bgra8, bytesPerRow: 8)
            }
        }
        #expect(throws: VisionError.self) { try image.pixels(in: .nv12) }
    }

    @Test func headerWithoutDecoding() throws {
        let png = try VisionImage(pixels: PixelBuffer(data: Data(count: 5 * 3 * 3), width: 5, height: 3, format: .rgb8))
            .encoded(as: .png)
        let header = try ImageHeader(data: png)
        #expect(header.format == .png && header.width == 5 && header.height == 3 && header.orientation == nil)
        #expect(throws: VisionError.self) { try ImageHeader(data: Data("not an image".utf8)) }
    }
}
