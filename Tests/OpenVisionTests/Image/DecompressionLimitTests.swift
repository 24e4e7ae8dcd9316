import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// Images whose compressed data costs far more work than their declared size (issue 28, item 4): a PNG
/// whose zlib stream goes on past what its header needs (8 GB behind a 1 × 1 header kept a worker busy
/// for 17 s) and a progressive JPEG with more scans than any encoder writes. Both are refused with
/// `invalidImage` before that work; images within the limits decode as before.
@Suite struct DecompressionLimitTests {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed + withUnsafeBytes(of: crc32(typed).bigEndian, Array.init)
    }

    /// A zlib stream of `count` zero bytes in stored blocks (RFC 1950/1951): no compression needed to
    /// make one that inflates to more than a small header declares.
    static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var left = count
        repeat {
            let n = min(left, 65_535)
            left -= n
            out += [left == 0 ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += [UInt8](repeating: 0, count: n)
        } while left > 0
        var a: UInt32 = 1, b: UInt32 = 0
        for _ in 0..<count { b = (b + a) % 65_521 }  // adler-32 of zeros: a stays 1
        return out + withUnsafeBytes(of: (b << 16 | a).bigEndian, Array.init)
    }

    /// A PNG of `width` × `height` (8-bit, `colorType` 0 gray, 2 RGB, 3 palette; `interlaced`: Adam7)
    /// whose image data inflates to `dataBytes` zero bytes, in IDAT chunks of at most 64 KiB.
    static func png(width: Int, height: Int, colorType: UInt8, interlaced: Bool = false, dataBytes: Int) -> Data {
        var ihdr = withUnsafeBytes(of: UInt32(width).bigEndian, Array.init) + withUnsafeBytes(of: UInt32(height).bigEndian, Array.init)
        ihdr += [8, colorType, 0, 0, interlaced ? 1 : 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
        if colorType == 3 { file += chunk("PLTE", [0, 0, 0]) }
        let stream = zlibZeros(dataBytes)
        for start in stride(from: 0, to: stream.count, by: 65_536) {
            file += chunk("IDAT", Array(stream[start..<min(start + 65_536, stream.count)]))
        }
        return Data(file + chunk("IEND", []))
    }

    /// Exactly the declared data decodes (each kind of PNG: the fast path's RGB, libpng's palette and
    /// interlaced gray); 4 MB more behind the same header is refused. Today's decoders inflated all of it
    /// and returned the image.
    @Test(arguments: [(UInt8(2), false), (UInt8(3), false), (UInt8(0), true)])
    func pngDataPastTheDeclaredSizeIsRefused(_ colorType: UInt8, _ interlaced: Bool) throws {
        let (width, height) = (20, 10)
        let bytesPerRow = colorType == 2 ? 3 * width : width
        // Adam7 rows of a 20 × 10 8-bit image: passes of 3×2, 2×2, 5×1, 5×3, 10×2, 10×5, 20×5 pixels, a filter byte each row.
        let exact = interlaced ? 2 * 4 + 2 * 3 + 1 * 6 + 3 * 6 + 2 * 11 + 5 * 11 + 5 * 21 : height * (1 + bytesPerRow)
        let fits = try VisionImage(data: Self.png(width: width, height: height, colorType: colorType, interlaced: interlaced, dataBytes: exact))
        #expect(fits.width == width && fits.height == height)
        let bomb = Self.png(width: width, height: height, colorType: colorType, interlaced: interlaced, dataBytes: exact + 4_000_000)
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
