import Foundation

/// PNG files built byte by byte for the decoders' limits: any size in the header, image data of any
/// length (zeros in stored deflate blocks, so no compressor is needed), in IDAT chunks of 64 KiB.
public enum PNGFile {
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + typed
            + withUnsafeBytes(of: crc32(typed).bigEndian, Array.init)
    }

    /// A zlib stream of `count` zero bytes in stored blocks (RFC 1950/1951): no compression needed to
    /// make one that inflates to more than a small header declares.
    public static func zlibZeros(_ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var left = count
        repeat {
            let n = min(left, 65_535)
            left -= n
            out += [left == 0 ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += [UInt8](repeating: 0, count: n)
        } while left > 0
        var a: UInt32 = 1
        var b: UInt32 = 0
        for _ in 0..<count { b = (b + a) % 65_521 }  // adler-32 of zeros: a stays 1
        return out + withUnsafeBytes(of: (b << 16 | a).bigEndian, Array.init)
    }

    /// A PNG of `width` × `height` (8-bit, `colorType` 0 gray, 2 RGB, 3 palette; `interlaced`: Adam7)
    /// whose image data inflates to `dataBytes` zero bytes, in IDAT chunks of at most 64 KiB.
    public static func make(width: Int, height: Int, colorType: UInt8, interlaced: Bool = false, dataBytes: Int) -> Data
    {
        var ihdr =
            withUnsafeBytes(of: UInt32(width).bigEndian, Array.init)
            + withUnsafeBytes(of: UInt32(height).bigEndian, Array.init)
        ihdr += [8, colorType, 0, 0, interlaced ? 1 : 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
        if colorType == 3 { file += chunk("PLTE", [0, 0, 0]) }
        let stream = zlibZeros(dataBytes)
        for start in stride(from: 0, to: stream.count, by: 65_536) {
            file += chunk("IDAT", Array(stream[start..<min(start + 65_536, stream.count)]))
        }
        return Data(file + chunk("IEND", []))
    }
}
