import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Images whose compressed data costs far more work than their declared size (issue 28, item 4): a PNG
/// whose zlib stream goes on past what its header needs (8 GB behind a 1 × 1 header kept a worker busy
/// for 17 s) and a progressive JPEG with more scans than any encoder writes. Both are refused with
/// `invalidImage` before that work; images within the limits decode as before.
@Suite struct DecompressionLimitTests {
    /// Exactly the declared data decodes (each kind of PNG: the fast path's RGB, libpng's palette and
    /// interlaced gray); 4 MB more behind the same header is refused. Today's decoders inflated all of it
    /// and returned the image.
    @Test(arguments: [(UInt8(2), false), (UInt8(3), false), (UInt8(0), true)])
    func pngDataPastTheDeclaredSizeIsRefused(_ colorType: UInt8, _ interlaced: Bool) throws {
        let (width, height) = (20, 10)
        let bytesPerRow = colorType == 2 ? 3 * width : width
        // Adam7 rows of a 20 × 10 8-bit image: passes of 3×2, 2×2, 5×1, 5×3, 10×2, 10×5, 20×5 pixels, a filter byte each row.
        let exact = interlaced ? 2 * 4 + 2 * 3 + 1 * 6 + 3 * 6 + 2 * 11 + 5 * 11 + 5 * 21 : height * (1 + bytesPerRow)
        let fits = try VisionImage(
            data: PNGFile.make(
                width: width, height: height, colorType: colorType, interlaced: interlaced, dataBytes: exact))
        #expect(fits.width == width && fits.height == height)
        let bomb = PNGFile.make(
            width: width, height: height, colorType: colorType, interlaced: interlaced, dataBytes: exact + 4_000_000)
        #expect { _ = try VisionImage(data: bomb) } throws: {
            ($0 as? VisionError)?.code == .invalidImage && "\($0)".contains("inflates to more than its declared size")
        }
    }

    /// A progressive JPEG of 200 scans is refused; one of Pillow's 6 decodes.
    @Test func jpegWithTooManyScansIsRefused() throws {
        let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/Decoding")
        let normal = try VisionImage(data: try Data(contentsOf: directory.appendingPathComponent("progressive.jpg")))
        #expect(normal.width == 64 && normal.height == 48)
        let bomb = try Data(contentsOf: directory.appendingPathComponent("progressive-200-scans.jpg"))
        #expect { _ = try VisionImage(data: bomb) } throws: {
            ($0 as? VisionError)?.code == .invalidImage && "\($0)".contains("more than 100 scans")
        }
    }
}
