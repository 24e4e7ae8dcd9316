import Foundation
import ImageIO
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct CGImageDestinationTests {
    static func photo() throws -> CGImage {
        CGImage(
            visionImage: try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg")).resized(width: 160, height: 120)
        )
    }

    /// PNG is lossless: written to data and read back through a source, the pixels are the same.
    @Test func pngRoundTrip() throws {
        let image = try Self.photo()
        let data = NSMutableData()
        let destination = try #require(CGImageDestinationCreateWithData(data, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, image, nil)
        #expect(CGImageDestinationFinalize(destination))
        #expect(!CGImageDestinationFinalize(destination))  // once
        #expect(Array((data as Data).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let source = try #require(CGImageSourceCreateWithData(data, nil))
        #expect((CGImageSourceGetType(source) as String?) == "public.png")
        let back = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
        #expect(try back.visionImage().rgbData() == image.visionImage().rgbData())
    }

    /// JPEG to a file, at two qualities: the bytes of OpenVision's encoder at that quality (90, 30), read back the
    /// image's size and close to it, the lower quality smaller and further.
    @Test func jpegFileAndQuality() throws {
        let image = try Self.photo()
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        var sizes: [Int] = []
        var differences: [Double] = []
        for quality in [0.9, 0.3] {
            let url = folder.appendingPathComponent("q\(quality).jpg")
            let destination = try #require(
                CGImageDestinationCreateWithURL(url as CFURL, "public.jpeg" as CFString, 1, nil))
            CGImageDestinationAddImage(
                destination, image,
                [kCGImageDestinationLossyCompressionQuality: quality] as [CFString: Any] as CFDictionary)
            #expect(CGImageDestinationFinalize(destination))
            let source = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
            let back = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            #expect(back.width == 160 && back.height == 120)
            differences.append(Fixtures.meanDifference(try back.visionImage(), try image.visionImage()))
            let written = try Data(contentsOf: url)
            #expect(written == (try image.visionImage().encoded(as: .jpeg, quality: Int(quality * 100))))
            sizes.append(written.count)
        }
        #expect(sizes[1] < sizes[0] && differences[0] < differences[1] && differences[1] < 12, "\(differences)")
    }

    @Test func refusals() throws {
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "com.compuserve.gif" as CFString, 1, nil) == nil)
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "public.png" as CFString, 2, nil) == nil)
        let empty = try #require(CGImageDestinationCreateWithData(NSMutableData(), "public.png" as CFString, 1, nil))
        #expect(!CGImageDestinationFinalize(empty))  // no image added
        let unwritable = try #require(
            CGImageDestinationCreateWithURL(
                URL(fileURLWithPath: "/nonexistent/x.png") as CFURL,
                "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(unwritable, try Self.photo(), nil)
        #expect(!CGImageDestinationFinalize(unwritable))
        #expect((CGImageDestinationCopyTypeIdentifiers() as? [String])?.contains("public.jpeg") == true)
    }
}
