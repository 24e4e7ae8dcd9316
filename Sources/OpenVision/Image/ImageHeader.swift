import Foundation

/// What an encoded image says about itself before any pixel is decoded: format, stored
/// size and EXIF orientation. Reading it lets handlers refuse absurd dimensions up front.
public struct ImageHeader: Sendable, Equatable {
    /// The file format.
    public internal(set) var format: ImageFormat
    /// The stored width in pixels (before orientation).
    public internal(set) var width: Int
    /// The stored height in pixels (before orientation).
    public internal(set) var height: Int
    /// The EXIF orientation tag, if the file has one.
    public internal(set) var orientation: ImageOrientation?

    /// Parses the header of `data`; throws `invalidImage` for unknown or malformed bytes and
    /// `unsupportedImageFormat` for real image formats this build cannot decode.
    static func parse(_ data: Data) throws(VisionError) -> ImageHeader {
        guard !data.isEmpty else { throw VisionError(.invalidImage, "the image data is empty (0 bytes)") }
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<ImageHeader, VisionError> in
            Result { () throws(VisionError) -> ImageHeader in try parse(ByteReader(raw)) }
        }
        return try result.get()
    }

    private static func parse(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        if r.matches([0xFF, 0xD8, 0xFF]) { return try parseJPEG(r) }
        if r.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try parsePNG(r) }
        if r.matches(Array("RIFF".utf8)) && r.matches(Array("WEBP".utf8), at: 8) { return try parseWebP(r) }
        if r.matches(Array("BM".utf8)) { return try parseBMP(r) }
        if r.matches([0x49, 0x49, 0x2A, 0x00]) || r.matches([0x4D, 0x4D, 0x00, 0x2A]) { return try parseTIFF(r) }
        if let name = knownUnsupportedFormat(r) {
            throw VisionError(
                .unsupportedImageFormat,
                "\(name) images are not supported (supported: JPEG, PNG, WebP, BMP, TIFF)")
        }
        throw VisionError(.invalidImage, "the data is not a recognised image (JPEG, PNG, WebP, BMP or TIFF)")
    }

    private static func knownUnsupportedFormat(_ r: ByteReader) -> String? {
        if r.matches(Array("GIF8".utf8)) { return "GIF" }
        if r.matches(Array("ftypheic".utf8), at: 4) || r.matches(Array("ftypheix".utf8), at: 4)
            || r.matches(Array("ftypmif1".utf8), at: 4)
        {
            return "HEIC"
        }
        if r.matches(Array("ftypavif".utf8), at: 4) { return "AVIF" }
        if r.matches([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) { return "JPEG 2000" }
        if r.matches(Array("8BPS".utf8)) { return "Photoshop" }
        if r.matches([0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        if r.matches(Array("%PDF".utf8)) { return "PDF" }
        return nil
    }

    // MARK: JPEG

    private static func parseJPEG(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        var offset = 2
        var size: (Int, Int)?
        var orientation: ImageOrientation?
        var sawScan = false
        while offset + 4 <= r.count {
            guard r[offset] == 0xFF else {
                throw VisionError(.invalidImage, "corrupt JPEG: bad marker at byte \(offset)")
            }
            let marker = r[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            if marker == 0xD9 { break }
            let length = Int(r.u16be(offset + 2))
            guard length >= 2 else { throw VisionError(.invalidImage, "corrupt JPEG: bad segment length") }
            let body = offset + 4
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard body + 5 <= r.count else { throw truncated("JPEG") }
                size = (Int(r.u16be(body + 3)), Int(r.u16be(body + 1)))
            case 0xE1 where orientation == nil:
                if r.matches(Array("Exif".utf8) + [0, 0], at: body) {
                    let end = min(r.count, offset + 2 + length)
                    orientation = exifOrientation(r, tiffStart: body + 6, end: end)
                }
            case 0xDA:
                sawScan = true
            default: break
            }
            if sawScan { break }
            offset += 2 + length
        }
        guard let (w, h) = size else { throw truncated("JPEG", detail: "no frame header") }
        guard sawScan else { throw truncated("JPEG", detail: "no image data") }
        // A JPEG whose entropy-coded data was cut short has no end-of-image marker; libjpeg would
        // silently pad it with grey, so refuse it here.
        guard r.containsEndOfImage(from: offset) else { throw truncated("JPEG", detail: "no end-of-image marker") }
        return ImageHeader(format: .jpeg, width: w, height: h, orientation: orientation)
    }

    // MARK: PNG

    private static func parsePNG(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        guard r.count >= 33, r.matches(Array("IHDR".utf8), at: 12) else {
            throw truncated("PNG", detail: "no IHDR chunk")
        }
        let w = Int(r.u32be(16))
        let h = Int(r.u32be(20))
        var orientation: ImageOrientation?
        var offset = 8
        while offset + 8 <= r.count {
            let length = Int(r.u32be(offset))
            let type = r.string(offset + 4, 4)
            if type == "eXIf" {
                orientation = exifOrientation(r, tiffStart: offset + 8, end: min(r.count, offset + 8 + length))
            }
            if type == "IDAT" || type == "IEND" { break }
            offset += 12 + length
        }
        return ImageHeader(format: .png, width: w, height: h, orientation: orientation)
    }

    // MARK: WebP

    private static func parseWebP(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        guard r.count >= 30 else { throw truncated("WebP") }
        var offset = 12
        var size: (Int, Int)?
        var orientation: ImageOrientation?
        while offset + 8 <= r.count {
            let type = r.string(offset, 4)
            let length = Int(r.u32le(offset + 4))
            let body = offset + 8
            switch type {
            case "VP8X" where body + 10 <= r.count:
                size = (Int(r.u24le(body + 4)) + 1, Int(r.u24le(body + 7)) + 1)
            case "VP8 " where body + 10 <= r.count && size == nil:
                size = (Int(r.u16le(body + 6) & 0x3FFF), Int(r.u16le(body + 8) & 0x3FFF))
            case "VP8L" where body + 5 <= r.count && size == nil:
                let bits = r.u32le(body + 1)
                size = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
            case "EXIF":
                var start = body
                if r.matches(Array("Exif".utf8) + [0, 0], at: body) { start += 6 }
                orientation = exifOrientation(r, tiffStart: start, end: min(r.count, body + length))
            default: break
            }
            offset = body + length + (length & 1)
        }
        guard let (w, h) = size else { throw truncated("WebP", detail: "no image chunk") }
        return ImageHeader(format: .webp, width: w, height: h, orientation: orientation)
    }

    // MARK: BMP

    private static func parseBMP(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        guard r.count >= 26 else { throw truncated("BMP") }
        let headerSize = r.u32le(14)
        let w: Int
        let h: Int
        if headerSize == 12 {
            w = Int(r.u16le(18))
            h = Int(r.u16le(20))
        } else {
            w = Int(Int32(bitPattern: r.u32le(18)))
            h = abs(Int(Int32(bitPattern: r.u32le(22))))
        }
        guard w > 0 else { throw VisionError(.invalidImage, "corrupt BMP: width \(w)") }
        return ImageHeader(format: .bmp, width: w, height: h, orientation: nil)
    }

    // MARK: TIFF

    private static func parseTIFF(_ r: ByteReader) throws(VisionError) -> ImageHeader {
        guard let tags = tiffTags(r, tiffStart: 0, end: r.count, wanted: [256, 257, 274]),
            let w = tags[256], let h = tags[257]
        else { throw truncated("TIFF", detail: "no image size tags") }
        return ImageHeader(
            format: .tiff, width: w, height: h,
            orientation: tags[274].flatMap { ImageOrientation(rawValue: UInt32($0)) })
    }

    // MARK: EXIF (a TIFF structure)

    private static func exifOrientation(_ r: ByteReader, tiffStart: Int, end: Int) -> ImageOrientation? {
        guard let value = tiffTags(r, tiffStart: tiffStart, end: end, wanted: [274])?[274] else { return nil }
        return ImageOrientation(rawValue: UInt32(value))
    }

    /// Reads SHORT/LONG values of `wanted` tags from the first IFD of a TIFF structure.
    private static func tiffTags(_ r: ByteReader, tiffStart s: Int, end: Int, wanted: Set<Int>) -> [Int: Int]? {
        guard s + 8 <= end else { return nil }
        let little: Bool
        if r.matches([0x49, 0x49], at: s) {
            little = true
        } else if r.matches([0x4D, 0x4D], at: s) {
            little = false
        } else {
            return nil
        }
        func u16(_ o: Int) -> Int { little ? Int(r.u16le(o)) : Int(r.u16be(o)) }
        func u32(_ o: Int) -> Int { little ? Int(r.u32le(o)) : Int(r.u32be(o)) }
        let ifd = s + u32(s + 4)
        guard ifd >= s, ifd + 2 <= end else { return nil }
        let count = u16(ifd)
        var result: [Int: Int] = [:]
        for i in 0..<count {
            let e = ifd + 2 + i * 12
            guard e + 12 <= end else { break }
            let tag = u16(e)
            guard wanted.contains(tag) else { continue }
            switch u16(e + 2) {
            case 3: result[tag] = u16(e + 8)  // SHORT
            case 4: result[tag] = u32(e + 8)  // LONG
            default: break
            }
        }
        return result
    }

    private static func truncated(_ format: String, detail: String = "") -> VisionError {
        VisionError(.invalidImage, "truncated or corrupt \(format) data" + (detail.isEmpty ? "" : " (\(detail))"))
    }
}

/// Bounds-checked big/little-endian reads over raw bytes; out-of-range reads return 0.
private struct ByteReader {
    let raw: UnsafeRawBufferPointer
    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }
    var count: Int { raw.count }
    subscript(_ i: Int) -> UInt8 { i >= 0 && i < raw.count ? raw[i] : 0 }

    func matches(_ pattern: [UInt8], at offset: Int = 0) -> Bool {
        guard offset >= 0, offset + pattern.count <= raw.count else { return false }
        for (i, b) in pattern.enumerated() where raw[offset + i] != b { return false }
        return true
    }
    func u16be(_ o: Int) -> UInt16 { UInt16(self[o]) << 8 | UInt16(self[o + 1]) }
    func u16le(_ o: Int) -> UInt16 { UInt16(self[o + 1]) << 8 | UInt16(self[o]) }
    func u24le(_ o: Int) -> UInt32 { UInt32(self[o + 2]) << 16 | UInt32(self[o + 1]) << 8 | UInt32(self[o]) }
    func u32be(_ o: Int) -> UInt32 { UInt32(u16be(o)) << 16 | UInt32(u16be(o + 2)) }
    func u32le(_ o: Int) -> UInt32 { UInt32(u16le(o + 2)) << 16 | UInt32(u16le(o)) }
    func string(_ o: Int, _ n: Int) -> String {
        guard o >= 0, o + n <= raw.count else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[o..<(o + n)]), as: UTF8.self)
    }
    /// True when an FF D9 (EOI) marker occurs at or after `from`.
    func containsEndOfImage(from: Int) -> Bool {
        var i = raw.count - 2
        while i >= max(0, from) {
            if raw[i] == 0xFF && raw[i + 1] == 0xD9 { return true }
            i -= 1
        }
        return false
    }
}

extension ImageHeader {
    /// Reads the header of encoded image bytes without decoding any pixel; throws `invalidImage` for unknown or
    /// malformed bytes and `unsupportedImageFormat` for real image formats this build cannot decode.
    public init(data: Data) throws(VisionError) {
        self = try Self.parse(data)
    }
}
