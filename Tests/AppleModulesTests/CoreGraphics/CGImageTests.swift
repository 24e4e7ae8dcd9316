import CoreGraphics
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct CGImageTests {
    /// An OpenVision image as a CGImage: Apple's layout queries describe the BGRX bytes its provider gives.
    @Test func layoutOfAVisionImage() throws {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let image = CGImage(visionImage: photo)
        #expect(image.width == photo.width && image.height == photo.height)
        #expect(image.bitsPerComponent == 8 && image.bitsPerPixel == 32 && image.bytesPerRow == photo.width * 4)
        #expect(
            image.alphaInfo == .noneSkipFirst && image.byteOrderInfo == .order32Little
                && image.pixelFormatInfo == .packed)
        #expect(image.colorSpace?.model == .rgb)
        #expect(try image.visionImage() === photo)
        let data = try #require(image.dataProvider?.data)
        #expect(CFDataGetLength(data) == image.bytesPerRow * image.height)
        let bytes = CFDataGetBytePtr(data)!
        let rgb = photo.rgbData()
        let (x, y) = (123, 45)
        let p = y * image.bytesPerRow + x * 4
        let o = (y * photo.width + x) * 3
        #expect([bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]] == [rgb[o + 2], rgb[o + 1], rgb[o], 255])
    }

    /// An image made from a provider keeps its layout and bytes; RGBA, ARGB, BGRA, RGB and gray are read by
    /// OpenVision, a 16-bit layout is refused.
    @Test(arguments: [
        (CGImageAlphaInfo.premultipliedLast.rawValue, [UInt8(10), 20, 30, 255]),
        (CGImageAlphaInfo.noneSkipFirst.rawValue, [255, 10, 20, 30]),
        (CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue, [30, 20, 10, 255]),
    ])
    func providerImages(_ info: UInt32, _ pixel: [UInt8]) throws {
        let bytes = Data((0..<6).flatMap { _ in pixel })  // 3 × 2 pixels of RGB (10, 20, 30)
        let provider = try #require(CGDataProvider(data: bytes as CFData))
        let image = try #require(
            CGImage(
                width: 3, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 12,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: info),
                provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent))
        #expect(image.bitmapInfo.rawValue == info && image.bytesPerRow == 12)
        #expect(image.dataProvider?.data as Data? == bytes)
        #expect(Array(try image.visionImage().rgbData().prefix(3)) == [10, 20, 30])
    }

    @Test func grayRGBAndRefusedLayouts() throws {
        let gray = try #require(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 2,
                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: [],
                provider: CGDataProvider(data: Data([0, 50, 100, 150]) as CFData)!, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent))
        #expect(Array(try gray.visionImage().rgbData()) == [0, 0, 0, 50, 50, 50, 100, 100, 100, 150, 150, 150])
        let rgb = try #require(
            CGImage(
                width: 1, height: 1, bitsPerComponent: 8, bitsPerPixel: 24, bytesPerRow: 3,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: [],
                provider: CGDataProvider(data: Data([1, 2, 3]) as CFData)!, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent))
        #expect(Array(try rgb.visionImage().rgbData()) == [1, 2, 3])
        // 16-bit components, too few bytes, RGB without alpha in 32 bits: nil, as Core Graphics refuses them.
        let provider = CGDataProvider(data: Data(count: 64) as CFData)!
        #expect(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 16, bitsPerPixel: 64, bytesPerRow: 16,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue), provider: provider, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent) == nil)
        #expect(
            CGImage(
                width: 5, height: 5, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 20,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue), provider: provider, decode: nil,
                shouldInterpolate: false, intent: .defaultIntent) == nil)
        #expect(
            CGImage(
                width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8,
                space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: [], provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent)
                == nil)
    }

    /// cropping(to:): integral rectangle clipped to the image; nil when nothing of the image is inside.
    @Test func cropping() throws {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let image = CGImage(visionImage: photo)
        let crop = try #require(image.cropping(to: CGRect(x: 10.4, y: 20.6, width: 30.2, height: 40)))
        // CGRect.integral: (10, 20) to (41, 61).
        #expect(crop.width == 31 && crop.height == 41)
        let expected = try photo.cropped(
            to: NormalizedRect(
                imageRect: CGRect(x: 10, y: 20, width: 31, height: 41),
                in: photo.size, origin: .upperLeft))
        #expect(try crop.visionImage().rgbData() == expected.rgbData())
        let edge = try #require(image.cropping(to: CGRect(x: CGFloat(photo.width) - 5, y: -10, width: 50, height: 20)))
        #expect(edge.width == 5 && edge.height == 10)
        #expect(image.cropping(to: CGRect(x: CGFloat(photo.width) + 1, y: 0, width: 10, height: 10)) == nil)
        #expect(image.cropping(to: .null) == nil && image.cropping(to: CGRect(x: 5, y: 5, width: 0, height: 10)) == nil)
        // A provider image crops to the same bytes.
        let bytes = Data((0..<16).map(UInt8.init))  // 4 × 4 gray
        let gray = try #require(
            CGImage(
                width: 4, height: 4, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 4,
                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: [], provider: CGDataProvider(data: bytes as CFData)!,
                decode: nil, shouldInterpolate: false, intent: .defaultIntent))
        let part = try #require(gray.cropping(to: CGRect(x: 1, y: 2, width: 2, height: 2)))
        #expect(part.dataProvider?.data as Data? == Data([9, 10, 13, 14]))
    }

    @Test func colors() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        #expect(red.components == [1, 0, 0, 0.5] && red.alpha == 0.5 && red.numberOfComponents == 4)
        #expect(red.copy(alpha: 1)?.components == [1, 0, 0, 1])
        #expect(CGColor.white.components == [1, 1] && CGColor.black != CGColor.white)
        #expect(CGColorSpace(name: CGColorSpace.sRGB)?.numberOfComponents == 3)
        #expect(CGColorSpace(name: "kCGColorSpaceDisplayP3" as CFString) == nil)
    }
}
