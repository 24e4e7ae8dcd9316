import CNative
import Foundation
import Testing

/// ov_image_decode's own PNG decoder (libdeflate, ov_png.cpp) against the reference it replaces,
/// OpenCV 4.6's cv::imdecode (libpng) in the same process (`ov_image_decode_opencv`): the same pixels,
/// byte for byte, for every row filter, colour type and output; every file it does not take exactly
/// (other kinds, colorimetry, damage) is left to OpenCV, so the result and the error stay OpenCV's.
@Suite(.serialized) struct PNGDecodingTests {
    // MARK: - writing PNGs (uncompressed deflate blocks, so any filter and any damage can be made)

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let n = min(65535, data.count - start)
            let final: UInt8 = start + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[start..<start + n]
            start += n
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// Rows of `bpp`-byte pixels filtered as the PNG specification says, filter `filters[y % count]` on row y.
    static func filtered(_ rows: [[UInt8]], bpp: Int, filters: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let up = y > 0 ? rows[y - 1] : [UInt8](repeating: 0, count: row.count)
            let f = filters[y % filters.count]
            out.append(f)
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0
                let b = Int(up[i])
                let c = i >= bpp ? Int(up[i - bpp]) : 0
                let predicted: Int
                switch f {
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4: predicted = paeth(a, b, c)
                default: predicted = 0
                }
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
        }
        return out
    }

    /// A PNG of `rows` (bytes per pixel from `colorType` and `depth`), its data split into `parts` IDAT chunks,
    /// `extra` chunks between IHDR and IDAT.
    static func png(
        width: Int, rows: [[UInt8]], colorType: UInt8, depth: UInt8 = 8, bpp: Int, filters: [UInt8],
        extra: [[UInt8]] = [], parts: Int = 1
    ) -> [UInt8] {
        let ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(rows.count)) + [depth, colorType, 0, 0, 0]
        let stream = zlibStored(filtered(rows, bpp: bpp, filters: filters))
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
        for e in extra { file += e }
        let step = (stream.count + parts - 1) / parts
        for start in stride(from: 0, to: stream.count, by: step) {
            file += chunk("IDAT", Array(stream[start..<min(start + step, stream.count)]))
        }
        return file + chunk("IEND", [])
    }

    /// Deterministic pixels: smooth gradients plus noise (so every filter sees both small and large residuals).
    static func pixels(width: Int, height: Int, channels: Int, seed: UInt64) -> [[UInt8]] {
        var state = seed
        return (0..<height).map { y in
            (0..<width * channels).map { i in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 59)  // 0...31
                return UInt8(truncatingIfNeeded: (i / channels) * 3 + y * 5 + (i % channels) * 60 + noise)
            }
        }
    }

    // MARK: - decoding both ways

    struct Decoded: Equatable, CustomTestStringConvertible {
        var status: ov_status
        var width = 0, height = 0, gray = false
        var bytes: [UInt8] = []
        var testDescription: String {
            "status \(status.rawValue), \(width) x \(height) \(gray ? "gray" : "BGR"), \(bytes.count) bytes summing to \(bytes.reduce(0) { $0 + Int($1) })"
        }
    }

    /// Runs `decode` and reads the image it made (its pixels row by row), then frees it.
    static func read(_ decode: (inout OpaquePointer?) -> ov_status) -> Decoded {
        var made: OpaquePointer?
        let status = decode(&made)
        guard status == OV_OK, let image = made else { return Decoded(status: status) }
        defer { ov_image_free(image) }
        let w = Int(ov_image_width(image))
        let h = Int(ov_image_height(image))
        let gray = ov_image_is_gray(image) != 0
        var stride = 0
        let base = gray ? ov_image_gray(image, &stride) : ov_image_bgr(image, &stride)
        let rowBytes = w * (gray ? 1 : 3)
        var bytes: [UInt8] = []
        for y in 0..<h { bytes += UnsafeBufferPointer(start: base! + y * stride, count: rowBytes) }
        return Decoded(status: status, width: w, height: h, gray: gray, bytes: bytes)
    }

    static func opencv(_ file: [UInt8], luma: Bool) -> Decoded {
        read { image in ov_image_decode_opencv(file, file.count, luma ? 1 : 0, &image) }
    }

    static func ours(_ file: [UInt8], luma: Bool) -> Decoded {
        read { image in ov_image_decode(file, file.count, luma ? 1 : 0, 1, 0, &image) }
    }

    static func fast(_ file: [UInt8], luma: Bool) -> Decoded {
        read { image in ov_image_decode_png(file, file.count, luma ? 1 : 0, &image) }
    }

    /// The fast decoder takes `file` (both outputs) and gives OpenCV's pixels; so does ov_image_decode.
    static func expectTakenAndIdentical(_ file: [UInt8], _ label: String) {
        for luma in [false, true] {
            let reference = opencv(file, luma: luma)
            #expect(reference.status == OV_OK && !reference.bytes.isEmpty, "\(label) luma \(luma): OpenCV failed")
            let mine = fast(file, luma: luma)
            #expect(mine.status == OV_OK, "\(label) luma \(luma): left to OpenCV")
            #expect(
                mine == reference,
                "\(label) luma \(luma): \(zip(mine.bytes, reference.bytes).filter { $0 != $1 }.count) bytes differ")
            #expect(ours(file, luma: luma) == reference, "\(label) luma \(luma)")
        }
    }

    /// The fast decoder leaves `file` to OpenCV for output `luma`, and ov_image_decode answers as OpenCV does.
    static func expectLeftToOpenCV(_ file: [UInt8], luma: Bool, _ label: String) {
        #expect(fast(file, luma: luma).status == OV_ERR_UNSUPPORTED, "\(label) luma \(luma)")
        #expect(ours(file, luma: luma) == opencv(file, luma: luma), "\(label) luma \(luma)")
    }

    // MARK: - tests

    /// Gray, gray + alpha, RGB and RGBA; each of the five filters on every row, then all five mixed, at
    /// widths around the 15- and 16-byte vector blocks (and 1 pixel); the data in one IDAT or several.
    @Test(arguments: [(UInt8(0), 1), (4, 2), (2, 3), (6, 4)])
    func everyFilterAndColourType(colorType: UInt8, channels: Int) {
        for width in [1, 5, 16, 37, 101] {
            let rows = Self.pixels(width: width, height: 9, channels: channels, seed: UInt64(width * 10 + channels))
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0, 1]] {
                let file = Self.png(
                    width: width, rows: rows, colorType: colorType, bpp: channels, filters: filters,
                    parts: width == 37 ? 3 : 1)
                Self.expectTakenAndIdentical(file, "type \(colorType) width \(width) filters \(filters)")
            }
        }
    }

    /// PNGs as OpenCV itself writes them (compressed by zlib, Sub-filtered): photos' worth of noise and a
    /// flat page-like image.
    @Test func openCVsOwnPNGs() throws {
        for (w, h, r, g, b) in [(640, 480, 250, 248, 240), (33, 7, 0, 0, 0)] {
            var image: OpaquePointer?
            #expect(ov_image_create_filled(Int32(w), Int32(h), Int32(r), Int32(g), Int32(b), &image) == OV_OK)
            defer { ov_image_free(image) }
            var xy: [Float] = [2, 1, Float(w) - 3, Float(h) / 2, Float(w) / 3, Float(h) - 2]
            #expect(ov_image_fill_polygon(image, &xy, 3, 30, 90, 200) == OV_OK)
            var bytes: UnsafeMutablePointer<UInt8>?
            var length = 0
            #expect(ov_image_encode(image, ".png", 0, &bytes, &length) == OV_OK)
            defer { ov_free(bytes) }
            Self.expectTakenAndIdentical(Array(UnsafeBufferPointer(start: bytes, count: length)), "OpenCV's \(w)x\(h)")
        }
    }

    /// Colorimetry changes libpng's colour-to-gray conversion (gamma tables), so those files go to OpenCV
    /// for gray; colour output and gray sources ignore it and stay fast. tRNS always goes to OpenCV.
    @Test func colorimetryAndTransparency() {
        let rgb = Self.pixels(width: 20, height: 6, channels: 3, seed: 7)
        let gray = Self.pixels(width: 20, height: 6, channels: 1, seed: 8)
        let gamma = Self.chunk("gAMA", Self.bigEndian(45455))
        for extra in [gamma, Self.chunk("sRGB", [0]), Self.chunk("cHRM", Array(repeating: 1, count: 32))] {
            let file = Self.png(width: 20, rows: rgb, colorType: 2, bpp: 3, filters: [1, 4], extra: [extra])
            Self.expectLeftToOpenCV(file, luma: true, "RGB with colorimetry")
            #expect(Self.fast(file, luma: false) == Self.opencv(file, luma: false))
        }
        Self.expectTakenAndIdentical(
            Self.png(width: 20, rows: gray, colorType: 0, bpp: 1, filters: [3], extra: [gamma]), "gray + gAMA")
        // Text and physical-size chunks change nothing.
        let text = Self.chunk("tEXt", Array("Comment\u{0}made by a test".utf8))
        let phys = Self.chunk("pHYs", Array(repeating: 0, count: 9))
        Self.expectTakenAndIdentical(
            Self.png(width: 20, rows: rgb, colorType: 2, bpp: 3, filters: [2], extra: [text, phys]), "tEXt + pHYs")
        let trns = Self.png(
            width: 20, rows: rgb, colorType: 2, bpp: 3, filters: [0], extra: [Self.chunk("tRNS", [0, 1, 0, 2, 0, 3])])
        for luma in [false, true] { Self.expectLeftToOpenCV(trns, luma: luma, "tRNS") }
    }

    /// Images whose filtered rows exceed 64 MiB go to libpng, which streams them (no doubled peak memory).
    @Test func largeImagesAreLibpngs() throws {
        var image: OpaquePointer?
        // 4500 x (1 + 15000) bytes > 64 MiB
        #expect(ov_image_create_filled(5000, 4500, 200, 180, 160, &image) == OV_OK)
        defer { ov_image_free(image) }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        #expect(ov_image_encode(image, ".png", 0, &bytes, &length) == OV_OK)
        defer { ov_free(bytes) }
        Self.expectLeftToOpenCV(Array(UnsafeBufferPointer(start: bytes, count: length)), luma: true, "5000 x 4500 RGB")
    }

    /// Other kinds (16-bit samples, a palette, Adam7) are OpenCV's.
    @Test func otherKindsAreOpenCVs() {
        let wide = Self.pixels(width: 12, height: 5, channels: 2, seed: 3)  // 16-bit gray: 2 bytes per sample
        let sixteen = Self.png(width: 12, rows: wide, colorType: 0, depth: 16, bpp: 2, filters: [1])
        let indices = Self.pixels(width: 12, height: 5, channels: 1, seed: 4).map { $0.map { $0 % 4 } }
        let palette = Self.png(
            width: 12, rows: indices, colorType: 3, bpp: 1, filters: [0],
            extra: [Self.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])])
        // 1 x 1: Adam7's pass 1 only
        var interlaced = Self.png(width: 1, rows: [[7]], colorType: 0, bpp: 1, filters: [0])
        interlaced[28] = 1
        let ihdr = Array(interlaced[12..<29])
        interlaced.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(ihdr)))
        for (file, label) in [(sixteen, "16-bit"), (palette, "palette"), (interlaced, "Adam7")] {
            for luma in [false, true] {
                Self.expectLeftToOpenCV(file, luma: luma, label)
                #expect(Self.ours(file, luma: luma).status == OV_OK, "\(label) luma \(luma)")
            }
        }
    }

    /// Damage is never decoded here: a bad CRC, a bad Adler-32, a bad filter byte, a truncated file, trailing
    /// garbage in the stream, data after IEND missing: each answers as OpenCV does (mostly OV_ERR_DECODE).
    @Test func damagedFilesAnswerAsOpenCV() {
        let rows = Self.pixels(width: 30, height: 10, channels: 3, seed: 11)
        let good = Self.png(width: 30, rows: rows, colorType: 2, bpp: 3, filters: [1, 4, 3])
        let idat = 8 + 25  // offset of the IDAT chunk's length field
        var badCRC = good
        badCRC[badCRC.count - 13] ^= 0xFF  // the IDAT's CRC, just before IEND's 12 bytes
        var badAdler = good
        badAdler[badAdler.count - 17] ^= 0x01  // the last Adler-32 byte, then the CRC
        badAdler.replaceSubrange(
            badAdler.count - 16..<badAdler.count - 12,
            with: Self.bigEndian(Self.crc32(Array(badAdler[idat + 4..<badAdler.count - 16]))))
        var badFilter = good
        badFilter[idat + 8 + 2 + 5] = 9  // the first row's filter byte, after the zlib header and stored-block header
        badFilter.replaceSubrange(
            badFilter.count - 16..<badFilter.count - 12,
            with: Self.bigEndian(Self.crc32(Array(badFilter[idat + 4..<badFilter.count - 16]))))
        let truncated = Array(good.prefix(good.count / 2))
        let noEnd = Array(good.dropLast(12))
        for (file, label) in [
            (badCRC, "IDAT CRC"), (badAdler, "Adler-32"), (badFilter, "filter 9"), (truncated, "truncated"),
            (noEnd, "no IEND"),
        ] {
            for luma in [false, true] { Self.expectLeftToOpenCV(file, luma: luma, label) }
        }
        #expect(Self.ours(truncated, luma: true).status == OV_ERR_DECODE)
        #expect(Self.ours(badFilter, luma: false).status == OV_ERR_DECODE)
        // An absurd IHDR (2^31 - 1 columns) over a few bytes of data: left to OpenCV, which refuses it; nothing allocated here.
        var absurd = Self.png(width: 4, rows: [[1, 2, 3, 4]], colorType: 0, bpp: 1, filters: [0])
        absurd.replaceSubrange(16..<20, with: Self.bigEndian(0x7FFF_FFFF))
        absurd.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(Array(absurd[12..<29]))))
        for luma in [false, true] { Self.expectLeftToOpenCV(absurd, luma: luma, "absurd width") }
        #expect(Self.ours(absurd, luma: false).status == OV_ERR_DECODE)
    }

    /// What ov_image_decode writes to stderr (fd 2) while `body` runs, read back from a temporary file.
    static func stderrOutput(of body: () -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-png-stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        try #require(fd >= 0)
        fflush(nil)
        let saved = dup(2)
        dup2(fd, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(fd)
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The PNGs left to libpng (ov_libpng.cpp) keep its messages: a warning travels with the image (the pixels
    /// still OpenCV's), an error is the OV_ERR_DECODE's message, and nothing is printed on stderr, where
    /// OpenCV's imdecode prints "libpng warning: iCCP: profile 'bad': 'xxxx': exceeds application limits" and
    /// "libpng error: Invalid IHDR data" for these two files (`ov_image_decode_opencv` on them).
    @Test func libpngMessagesAreKeptNotPrinted() throws {
        let rgb = Self.pixels(width: 20, height: 6, channels: 3, seed: 9)
        let shortICC = Self.chunk(
            "iCCP", Array("bad".utf8) + [0, 0] + Self.zlibStored(Array(repeating: 120, count: 200)))
        let warned = Self.png(width: 20, rows: rgb, colorType: 2, bpp: 3, filters: [1], extra: [shortICC])
        var badType = Self.png(width: 4, rows: [[1, 2, 3, 4]], colorType: 0, bpp: 1, filters: [0])
        badType[25] = 5  // no such colour type
        badType.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(Array(badType[12..<29]))))
        var warnings: [String] = []
        var error = ""
        var pixels = Decoded(status: OV_OK)
        let printed = try Self.stderrOutput {
            pixels = Self.read { image in
                // gray: colorimetry leaves it to libpng
                let status = ov_image_decode(warned, warned.count, 1, 1, 0, &image)
                if let image {
                    warnings = (0..<ov_image_warning_count(image)).map {
                        ov_image_warning(image, $0).map { String(cString: $0) } ?? ""
                    }
                }
                return status
            }
            var image: OpaquePointer?
            #expect(ov_image_decode(badType, badType.count, 1, 1, 0, &image) == OV_ERR_DECODE)
            error = String(cString: ov_last_error())
        }
        // (Other suites may print meanwhile: only this test's messages are looked for.)
        #expect(!printed.contains("iCCP") && !printed.contains("IHDR"), "\(printed)")
        #expect(warnings == ["PNG: iCCP: profile 'bad': 'xxxx': exceeds application limits"], "\(warnings)")
        #expect(pixels == Self.opencv(warned, luma: true))
        #expect(error.contains("IHDR"), "\(error)")
    }
}
