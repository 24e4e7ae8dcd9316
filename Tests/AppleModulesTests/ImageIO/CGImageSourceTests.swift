import Foundation
import ImageIO
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct CGImageSourceTests {
    /// A 40 × 24 JPEG whose EXIF says orientation 6 (made with Pillow:
    /// `im = Image.new("RGB", (40, 24), (220, 30, 30))`, right half (30, 30, 220), `exif[274] = 6`, quality 95;
    /// Pillow reads back `size == (40, 24)`, `getexif()[274] == 6`).
    static let rotated = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/ImageIO/exif-orientation-6.jpg")

    @Test func propertiesCarryTheFilesOrientation() throws {
        let source = try #require(CGImageSourceCreateWithURL(Self.rotated as CFURL, nil))
        #expect(CGImageSourceGetCount(source) == 1 && CGImageSourceGetStatus(source) == .statusComplete)
        #expect((CGImageSourceGetType(source) as String?) == "public.jpeg")
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any])
        #expect(properties[kCGImagePropertyOrientation] as? UInt32 == 6)
        #expect(
            properties[kCGImagePropertyPixelWidth] as? Int == 40
                && properties[kCGImagePropertyPixelHeight] as? Int == 24)
        let tiff = try #require(properties[kCGImagePropertyTIFFDictionary] as? [String: Any])
        #expect(tiff[kCGImagePropertyTIFFOrientation as String] as? Int == 6)
        #expect(CGImagePropertyOrientation(rawValue: properties[kCGImagePropertyOrientation] as! UInt32) == .right)
        #expect(CGImageSourceCopyPropertiesAtIndex(source, 1, nil) == nil)
        let container = try #require(CGImageSourceCopyProperties(source, nil) as? [String: Any])
        #expect(container[kCGImagePropertyFileSize as String] as? Int == 803)
    }

    /// The image as stored (orientation not applied, as Apple's); a thumbnail with the transform is upright.
    @Test func imageAsStoredAndThumbnail() throws {
        let source = try #require(CGImageSourceCreateWithData(try Data(contentsOf: Self.rotated) as CFData, nil))
        let image = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
        #expect(image.width == 40 && image.height == 24)
        let rgb = try image.visionImage().rgbData()
        #expect(rgb[0] > 180 && rgb[2] < 80)  // top-left red, as stored
        #expect(CGImageSourceCreateImageAtIndex(source, 1, nil) == nil)
        let options =
            [
                kCGImageSourceCreateThumbnailWithTransform: true, kCGImageSourceThumbnailMaxPixelSize: 20,
                kCGImageSourceCreateThumbnailFromImageAlways: true,
            ] as [CFString: Any] as CFDictionary
        let thumbnail = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, options))
        #expect(thumbnail.width == 12 && thumbnail.height == 20)  // upright: 24 × 40, scaled to fit 20
        let upright = try thumbnail.visionImage().rgbData()
        // Orientation 6 turns the stored image 90° clockwise: its left (red) half becomes the top.
        #expect(upright[0] > 180 && upright[(19 * 12) * 3 + 2] > 180)
        let full = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, nil))
        #expect(full.width == 40 && full.height == 24)
    }

    @Test func notAnImage() throws {
        #expect(CGImageSourceCreateWithData(Data() as CFData, nil) == nil)
        #expect(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/nonexistent.jpg") as CFURL, nil) == nil)
        let text = try #require(CGImageSourceCreateWithData(Data("hello, world".utf8) as CFData, nil))
        #expect(CGImageSourceGetCount(text) == 0 && CGImageSourceGetType(text) == nil)
        #expect(CGImageSourceGetStatus(text) == .statusInvalidData)
        #expect(
            CGImageSourceCreateImageAtIndex(text, 0, nil) == nil
                && CGImageSourceCopyPropertiesAtIndex(text, 0, nil) == nil)
        // A JPEG cut after its header: the header reads, the pixels do not (or decode padded, as OpenVision's decoder
        // does for a damaged JPEG) — never a crash.
        let cut = try Data(contentsOf: Self.rotated).prefix(200)
        let truncated = try #require(CGImageSourceCreateWithData(cut as CFData, nil))
        _ = CGImageSourceCreateImageAtIndex(truncated, 0, nil)
        // A PNG header that declares 60000 × 60000 pixels: counted, its size reported, but no image is made (the
        // decoder refuses more than VisionImage.defaultMaximumPixelCount before allocating anything).
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        huge += Data([0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 2, 0, 0, 0, 0, 0, 0, 0])
        huge += Data([0, 0, 0, 0]) + Data("IEND".utf8) + Data([0xAE, 0x42, 0x60, 0x82])
        let bomb = try #require(CGImageSourceCreateWithData(huge as CFData, nil))
        #expect(CGImageSourceGetCount(bomb) == 1)
        let properties = CGImageSourceCopyPropertiesAtIndex(bomb, 0, nil) as? [String: Any]
        #expect(properties?[kCGImagePropertyPixelWidth as String] as? Int == 60000)
        #expect(CGImageSourceCreateImageAtIndex(bomb, 0, nil) == nil)
        #expect(CGImageSourceCreateThumbnailAtIndex(bomb, 0, nil) == nil)
        let gif = try #require(CGImageSourceCreateWithData(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8) as CFData, nil))
        #expect(CGImageSourceGetCount(gif) == 0 && CGImageSourceGetStatus(gif) == .statusUnknownType)
    }
}
