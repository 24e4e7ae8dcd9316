import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct ImageDecodingTests {
    /// A 64×48 test pattern: dark square in the top-left quadrant, mid-gray bar at the bottom.
    static func pattern() throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 64, height: 48)
        try Fixtures.fill([(4, 4), (24, 4), (24, 20), (4, 20)], on: &canvas, gray: 0)
        try Fixtures.fill([(0, 40), (64, 40), (64, 48), (0, 48)], on: &canvas, gray: 128)
        return canvas.makeImage()
    }

    @Test(arguments: [ImageFormat.png, .jpeg, .webp, .bmp, .tiff])
    func decodesEveryFormat(_ format: ImageFormat) throws {
        let original = try Self.pattern()
        let data = try original.encoded(as: format, quality: 95)
        let decoded = try VisionImage(data: data)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(Fixtures.meanDifference(decoded, original) < (format == .jpeg || format == .webp ? 4 : 0.001))
    }

    @Test(arguments: PixelFormat.allCases)
    func rawPixelFormats(_ format: PixelFormat) throws {
        // A 4×2 image: left half pure red (255, 0, 0), right half pure blue (0, 0, 255); gray for gray8.
        let (w, h) = (4, 2)
        var bytes: [UInt8] = []
        let stride: Int
        switch format {
        case .nv12:
            // Y/UV of red and blue per BT.601 full range: red Y=76 U=85 V=255, blue Y=29 U=255 V=107.
            stride = 8  // padded rows
            for _ in 0..<h { bytes += [76, 76, 29, 29, 0, 0, 0, 0] }
            bytes += [85, 255, 255, 107, 0, 0, 0, 0]
        default:
            stride = w * format.bytesPerPixel + 3  // padded rows
            for _ in 0..<h {
                for x in 0..<w {
                    let red = x < 2
                    switch format {
                    case .rgb8: bytes += red ? [255, 0, 0] : [0, 0, 255]
                    case .bgr8: bytes += red ? [0, 0, 255] : [255, 0, 0]
                    case .rgba8: bytes += red ? [255, 0, 0, 255] : [0, 0, 255, 255]
                    case .bgra8: bytes += red ? [0, 0, 255, 255] : [255, 0, 0, 255]
                    case .argb8: bytes += red ? [255, 255, 0, 0] : [255, 0, 0, 255]
                    case .gray8: bytes += red ? [200] : [50]
                    case .nv12: break
                    }
                }
                bytes += [9, 9, 9]
            }
        }
        let image = try VisionImage(
            pixels: PixelBuffer(data: Data(bytes), width: w, height: h, format: format, bytesPerRow: stride))
        let rgb = [UInt8](image.rgbData())
        #expect(rgb.count == w * h * 3)
        let left = Array(rgb[0..<3])
        let right = Array(rgb[9..<12])
        switch format {
        case .gray8:
            #expect(left == [200, 200, 200] && right == [50, 50, 50])
        case .nv12:
            // Converting through 4:2:0 loses a little: within 40 levels of pure red/blue.
            #expect(left[0] > 215 && left[2] < 40 && right[2] > 215 && right[0] < 40)
        default:
            #expect(left == [255, 0, 0] && right == [0, 0, 255])
        }
    }

    @Test func pixelBufferTooSmallIsAnError() {
        let buffer = PixelBuffer(data: Data(count: 10), width: 4, height: 4, format: .rgb8)
        #expect(throws: VisionError.self) { try VisionImage(pixels: buffer) }
        do { _ = try VisionImage(pixels: buffer) } catch { #expect(error.code == .invalidArgument) }
    }

    // MARK: Bad input: each gives a typed error, never a crash

    func expectError(
        _ code: VisionError.Code, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
        } catch let error as VisionError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(!error.message.isEmpty)
        } catch {
            Issue.record("expected VisionError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedJPEG() throws {
        let jpeg = try Self.pattern().encoded(as: .jpeg)
        expectError(.invalidImage) { _ = try VisionImage(data: jpeg.prefix(jpeg.count * 2 / 3)) }
        expectError(.invalidImage) { _ = try VisionImage(data: jpeg.prefix(40)) }
    }

    @Test func truncatedPNG() throws {
        let png = try Self.pattern().encoded(as: .png)
        expectError(.invalidImage) { _ = try VisionImage(data: png.prefix(png.count / 2)) }
    }

    @Test func zeroByteFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-empty-\(UUID()).png")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        expectError(.invalidImage) { _ = try VisionImage(contentsOf: url) }
    }

    @Test func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        expectError(.invalidImage) { _ = try VisionImage(data: Data([0x00, 0x01]) + bytes) }
    }

    @Test func absurdDimensionsRefusedBeforeDecoding() throws {
        // A valid PNG signature + IHDR declaring 100000×100000 (10 gigapixels), then nothing.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        png += Array("IHDR".utf8)
        png += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        expectError(.imageTooLarge) { _ = try VisionImage(data: png) }
        // A configurable limit: a real 64×48 PNG is refused under a 1000-pixel limit.
        let small = try Self.pattern().encoded(as: .png)
        expectError(.imageTooLarge) { _ = try VisionImage(data: small, maximumPixelCount: 1000) }
    }

    @Test func unsupportedFormat() {
        let gif = Data("GIF89a".utf8) + Data([1, 0, 1, 0, 0, 0, 0]) + Data(count: 32)
        expectError(.unsupportedImageFormat) { _ = try VisionImage(data: gif) }
    }

    @Test func missingFile() {
        expectError(.fileNotFound) { _ = try VisionImage(contentsOf: URL(fileURLWithPath: "/nonexistent/photo.jpg")) }
    }

    @Test func corruptJPEGBody() throws {
        var jpeg = try Self.pattern().encoded(as: .jpeg)
        // Destroy the Huffman tables and frame header but keep SOI/EOI.
        let start = 20
        let end = min(jpeg.count - 2, 400)
        jpeg.replaceSubrange(start..<end, with: Data(repeating: 0x00, count: end - start))
        do {
            _ = try VisionImage(data: jpeg)
            Issue.record("corrupt JPEG decoded")
        } catch {
            #expect(error.code == .invalidImage)
        }
    }
}
