import Foundation

/// How a bitmap's pixels are laid out: its alpha (`alphaInfoMask` bits), byte order (`byteOrderMask` bits) and
/// pixel format (`pixelFormatMask` bits), with Apple's raw values.
public struct CGBitmapInfo: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt32
    /// A bitmap info with these bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The bits that hold a `CGImageAlphaInfo`.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// Components are floating-point values.
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold a `CGImageByteOrderInfo`.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The bits that hold a `CGImagePixelFormatInfo`.
    public static let pixelFormatMask = CGBitmapInfo(rawValue: 0xF0000)
    /// The default byte order (big-endian: components in memory in the order their names give).
    public static let byteOrderDefault: CGBitmapInfo = []
    /// 16-bit little-endian words.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit little-endian words: a 32-bit `…First` pixel is B G R A in memory.
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit big-endian words.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit big-endian words.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
}

/// Whether and where a bitmap's pixels hold alpha (Apple's raw values).
public enum CGImageAlphaInfo: UInt32, Sendable {
    /// No alpha.
    case none = 0
    /// Alpha last, colour premultiplied by it.
    case premultipliedLast = 1
    /// Alpha first, colour premultiplied by it.
    case premultipliedFirst = 2
    /// Alpha last, colour not premultiplied.
    case last = 3
    /// Alpha first, colour not premultiplied.
    case first = 4
    /// An unused byte last (RGBX).
    case noneSkipLast = 5
    /// An unused byte first (XRGB).
    case noneSkipFirst = 6
    /// Alpha only, no colour.
    case alphaOnly = 7
}

/// A bitmap's byte order (Apple's raw values, the `byteOrderMask` bits).
public enum CGImageByteOrderInfo: UInt32, Sendable {
    /// The default (big-endian) order.
    case orderDefault = 0
    /// 16-bit little-endian.
    case order16Little = 0x1000
    /// 32-bit little-endian.
    case order32Little = 0x2000
    /// 16-bit big-endian.
    case order16Big = 0x3000
    /// 32-bit big-endian.
    case order32Big = 0x4000
}

/// A bitmap's packed pixel format (Apple's raw values, the `pixelFormatMask` bits).
public enum CGImagePixelFormatInfo: UInt32, Sendable {
    /// Components of `bitsPerComponent` each (every layout here).
    case packed = 0
    /// 5-5-5 RGB.
    case RGB555 = 0x10000
    /// 5-6-5 RGB.
    case RGB565 = 0x20000
    /// 10-10-10-2 RGB.
    case RGB101010 = 0x30000
    /// 10-bit components in 16 bits.
    case RGBCIF10 = 0x40000
}

/// How colours outside a colour space's gamut are mapped (Apple's cases; no colour management happens here).
public enum CGColorRenderingIntent: Int32, Sendable {
    /// The context's default.
    case defaultIntent = 0
    /// Colorimetric, relative to the media's white.
    case absoluteColorimetric = 1
    /// Colorimetric, white mapped to white.
    case relativeColorimetric = 2
    /// Preserving the visual relationship between colours.
    case perceptual = 3
    /// Preserving saturation.
    case saturation = 4
}
