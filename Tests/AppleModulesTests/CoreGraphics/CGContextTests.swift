import CoreGraphics
import CoreVideo
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct CGContextTests {
    static func rgbaContext(width: Int = 20, height: Int = 10) throws -> CGContext {
        try #require(
            CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    }

    /// The pixel at column x, memory row y (row 0 is the top: Core Graphics' y = height − 1).
    static func pixel(_ context: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
        let p = context.data!.assumingMemoryBound(to: UInt8.self) + y * context.bytesPerRow + x * 4
        return (0..<4).map { p[$0] }
    }

    /// Core Graphics' coordinates: origin bottom-left, y up; whole-pixel rectangles fill exactly their pixels.
    @Test func fillRectanglesInCoreGraphicsCoordinates() throws {
        let context = try Self.rgbaContext()
        #expect(context.bytesPerRow == 128 && Self.pixel(context, 0, 0) == [0, 0, 0, 0])
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        context.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 20, height: 2))
        #expect(Self.pixel(context, 0, 0) == [255, 0, 0, 255] && Self.pixel(context, 9, 7) == [255, 0, 0, 255])
        #expect(Self.pixel(context, 10, 0) == [0, 0, 0, 0] && Self.pixel(context, 19, 7) == [0, 0, 0, 0])
        #expect(Self.pixel(context, 0, 8) == [0, 0, 255, 255] && Self.pixel(context, 19, 9) == [0, 0, 255, 255])
        // Half-transparent black over opaque red: premultiplied source over, 255 × 0.5.
        context.setFillColor(gray: 0, alpha: 0.5)
        context.fill(CGRect(x: 0, y: 5, width: 1, height: 1))
        let blended = Self.pixel(context, 0, 4)
        #expect(abs(Int(blended[0]) - 128) <= 1 && blended[1] == 0 && blended[3] == 255)
        // Over transparent: premultiplied colour 0, alpha 128.
        context.fill(CGRect(x: 15, y: 5, width: 1, height: 1))
        #expect(abs(Int(Self.pixel(context, 15, 4)[3]) - 128) <= 1)
        context.clear(CGRect(x: 0, y: 0, width: 20, height: 10))
        #expect(Self.pixel(context, 0, 0) == [0, 0, 0, 0])
    }

    /// A flipped transform (as UIKit-style drawing code sets up) puts y = 0 at the top row.
    @Test func transformsAndState() throws {
        let context = try Self.rgbaContext()
        context.saveGState()
        context.translateBy(x: 0, y: 10)
        context.scaleBy(x: 1, y: -1)
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.fill(CGRect(x: 2, y: 0, width: 3, height: 1))
        #expect(Self.pixel(context, 2, 0) == [0, 255, 0, 255] && Self.pixel(context, 4, 0) == [0, 255, 0, 255])
        #expect(Self.pixel(context, 2, 1) == [0, 0, 0, 0] && Self.pixel(context, 5, 0) == [0, 0, 0, 0])
        context.restoreGState()
        #expect(context.ctm.isIdentity)
        // Restored: black fill again, y up.
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(Self.pixel(context, 0, 9) == [0, 0, 0, 255])
    }

    /// Strokes and ellipses: a 2-wide outline colours the border, not the inside; a filled ellipse covers
    /// π·a·b pixels within 3%.
    @Test func strokesAndEllipses() throws {
        let context = try Self.rgbaContext(width: 100, height: 80)
        context.setStrokeColor(red: 1, green: 1, blue: 1, alpha: 1)
        context.setLineWidth(2)
        context.setShouldAntialias(false)
        context.stroke(CGRect(x: 10, y: 10, width: 30, height: 20))
        #expect(Self.pixel(context, 25, 80 - 10)[3] == 255)  // bottom edge, y = 10
        #expect(Self.pixel(context, 25, 80 - 20)[3] == 0)  // inside
        #expect(Self.pixel(context, 60, 80 - 20)[3] == 0)  // outside
        let ellipse = try Self.rgbaContext(width: 100, height: 80)
        ellipse.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
        ellipse.setShouldAntialias(false)
        ellipse.fillEllipse(in: CGRect(x: 10, y: 10, width: 60, height: 40))
        var covered = 0
        for y in 0..<80 { for x in 0..<100 where Self.pixel(ellipse, x, y)[3] == 255 { covered += 1 } }
        #expect(abs(Double(covered) / (Double.pi * 30 * 20) - 1) < 0.03, "\(covered)")
        #expect(Self.pixel(ellipse, 40, 80 - 30)[3] == 255 && Self.pixel(ellipse, 11, 80 - 11)[3] == 0)
        // A path: a triangle filled through the current path, then stroked line segments.
        let triangle = try Self.rgbaContext(width: 40, height: 40)
        triangle.setFillColor(gray: 1, alpha: 1)
        triangle.move(to: CGPoint(x: 0, y: 0))
        triangle.addLine(to: CGPoint(x: 40, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 40))
        triangle.closePath()
        #expect(!triangle.isPathEmpty)
        triangle.fillPath()
        #expect(triangle.isPathEmpty)
        #expect(Self.pixel(triangle, 5, 34)[3] == 255 && Self.pixel(triangle, 34, 5)[3] == 0)
        triangle.setStrokeColor(red: 1, green: 0, blue: 0, alpha: 1)
        triangle.strokeLineSegments(between: [CGPoint(x: 30, y: 35.5), CGPoint(x: 38, y: 35.5)])
        #expect(Self.pixel(triangle, 34, 4)[0] > 100)
    }

    /// draw(_:in:): the image upright in the rectangle, scaled; nearest-pixel sampling keeps its pixels exact.
    @Test func drawImage() throws {
        // A 2 × 2 RGBA image: top row red, green; bottom row blue, white.
        let bytes = Data([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
        let image = try #require(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                provider: CGDataProvider(data: bytes as CFData)!, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent))
        let context = try Self.rgbaContext(width: 8, height: 8)
        context.interpolationQuality = .none
        context.draw(image, in: CGRect(x: 0, y: 4, width: 4, height: 4))  // the top-left quarter
        #expect(Self.pixel(context, 0, 0) == [255, 0, 0, 255] && Self.pixel(context, 3, 1) == [0, 255, 0, 255])
        #expect(Self.pixel(context, 1, 3) == [0, 0, 255, 255] && Self.pixel(context, 3, 3) == [255, 255, 255, 255])
        #expect(Self.pixel(context, 4, 0) == [0, 0, 0, 0] && Self.pixel(context, 0, 4) == [0, 0, 0, 0])
        // The snapshot is the pixels; later drawing does not change it.
        let snapshot = try #require(context.makeImage())
        #expect(snapshot.width == 8 && snapshot.bitsPerPixel == 32 && snapshot.alphaInfo == .premultipliedLast)
        context.fill(CGRect(x: 0, y: 0, width: 8, height: 8))
        #expect(Array((snapshot.dataProvider!.data! as Data).prefix(4)) == [255, 0, 0, 255])
        #expect(Array(try snapshot.visionImage().rgbData().prefix(6)) == [255, 0, 0, 255, 0, 0])
    }

    /// The way apps fill a pixel buffer from a CGImage: a context over the buffer's base address (BGRA,
    /// byteOrder32Little | premultipliedFirst), the image drawn 1:1 — the buffer then holds the image's pixels.
    @Test func drawIntoAPixelBuffer() throws {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg")).resized(width: 64, height: 48)
        var made: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let context = try #require(
            CGContext(
                data: CVPixelBufferGetBaseAddress(buffer), width: 64, height: 48,
                bitsPerComponent: 8, bytesPerRow: CVPixelBufferGetBytesPerRow(buffer),
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue
                    | CGBitmapInfo.byteOrder32Little.rawValue))
        context.draw(CGImage(visionImage: photo), in: CGRect(x: 0, y: 0, width: 64, height: 48))
        _ = CVPixelBufferUnlockBaseAddress(buffer, [])
        #expect(try buffer.visionImage().rgbData() == photo.rgbData())
    }

    @Test func grayContextAndRefusals() throws {
        let gray = try #require(
            CGContext(
                data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 4,
                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue))
        gray.setFillColor(gray: 0.5, alpha: 1)
        gray.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(abs(Int(gray.data!.load(as: UInt8.self)) - 128) <= 1)
        let image = try #require(gray.makeImage())
        #expect(image.bitsPerPixel == 8 && image.colorSpace?.model == .monochrome)
        // Core Graphics has no bitmap contexts with straight (non-premultiplied) alpha or 16-bit components here.
        #expect(
            CGContext(
                data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
        #expect(
            CGContext(
                data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(
            CGContext(
                data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) == nil)
        #expect(
            CGContext(
                data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                space: CGColorSpaceCreateDeviceGray(),
                bitmapInfo: 0) == nil)
    }
}
