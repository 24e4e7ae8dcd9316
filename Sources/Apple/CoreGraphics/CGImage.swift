import Foundation
import OpenVision

/// Core Graphics' bitmap image: immutable, a reference type, as Apple's. On Linux it is either an OpenVision
/// `VisionImage` (what decoding, Vision and Core Image give: reported as 8-bit BGRX, `byteOrder32Little` with
/// `noneSkipFirst`, or 8-bit gray for a luma-only image, its `dataProvider` made on first use) or the bytes of a
/// `CGDataProvider` in the layout it was made with. `CGImage(visionImage:)` and `visionImage()` cross between the two
/// without copying when they can.
public final class CGImage: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits in one colour or alpha component (8 for every image made here).
    public let bitsPerComponent: Int
    /// Bits in one pixel.
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The colour space (sRGB or gray).
    public let colorSpace: CGColorSpace?
    /// The layout of the pixels: alpha, byte order and pixel format bits.
    public let bitmapInfo: CGBitmapInfo
    /// Whether the image is interpolated when scaled (kept as given; drawing always interpolates linearly here).
    public let shouldInterpolate: Bool
    /// The rendering intent (kept as given; no colour management happens here).
    public let renderingIntent: CGColorRenderingIntent

    private let storage: Storage
    private enum Storage {
        case image(VisionImage, CGDataProvider)
        case bytes(CGDataProvider, PixelFormat?)
    }

    /// Whether and where the pixels hold alpha (the `alphaInfoMask` bits of `bitmapInfo`).
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
    }

    /// The byte order (the `byteOrderMask` bits of `bitmapInfo`).
    public var byteOrderInfo: CGImageByteOrderInfo {
        CGImageByteOrderInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.byteOrderMask.rawValue) ?? .orderDefault
    }

    /// The pixel format (the `pixelFormatMask` bits of `bitmapInfo`): `.packed` for every image made here.
    public var pixelFormatInfo: CGImagePixelFormatInfo {
        CGImagePixelFormatInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.pixelFormatMask.rawValue) ?? .packed
    }

    /// The bytes of the pixels, in this image's layout.
    public var dataProvider: CGDataProvider? {
        switch storage {
        case .image(_, let provider), .bytes(let provider, _): provider
        }
    }

    /// Whether this is an image mask (never, here: masks are not made on Linux).
    public var isMask: Bool { false }

    /// An image over `provider`'s bytes in the layout given (Apple's initializer). 8 bits per component: gray
    /// (8 bits per pixel, no alpha), RGB (24, no alpha), or RGB with alpha or a skipped byte (32, default or
    /// 32-bit big-endian order; `byteOrder32Little` with alpha or skip first, i.e. BGRA). Other layouts (16-bit
    /// and float components, other colour spaces, `decode` arrays) are nil, as are sizes that do not fit the bytes.
    public init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
        decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent
    ) {
        guard decode == nil, width > 0, height > 0,
            let format = Self.pixelFormat(
                bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                space: space, bitmapInfo: bitmapInfo),
            bytesPerRow >= width * bitsPerPixel / 8,
            provider.storage.count >= (height - 1) * bytesPerRow + width * bitsPerPixel / 8
        else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow
        colorSpace = space
        self.bitmapInfo = bitmapInfo
        self.shouldInterpolate = shouldInterpolate
        renderingIntent = intent
        storage = .bytes(provider, format)
    }

    /// An OpenVision image as a `CGImage`, without copying its pixels (Linux only: where Apple code gets its
    /// `CGImage` from UIKit, decode with ImageIO's `CGImageSource` or wrap an OpenVision image here).
    public init(visionImage image: VisionImage) {
        width = image.width
        height = image.height
        bitsPerComponent = 8
        shouldInterpolate = true
        renderingIntent = .defaultIntent
        let format: PixelFormat
        if image.isGrayscale {
            format = .gray8
            bitsPerPixel = 8
            colorSpace = CGColorSpaceCreateDeviceGray()
            bitmapInfo = CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue)
        } else {
            format = .bgra8
            bitsPerPixel = 32
            colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
            bitmapInfo = CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipFirst.rawValue).union(.byteOrder32Little)
        }
        bytesPerRow = image.width * bitsPerPixel / 8
        let provider = CGDataProvider(producing: {
            // The layout was checked above: copying into it cannot fail.
            (try? image.pixels(in: format).data) ?? Data()
        })
        storage = .image(image, provider)
    }

    /// The image as an OpenVision image (Linux only): the image itself when it was made from one, else its pixels
    /// converted (alpha dropped). Throws `VisionError` for a layout OpenVision does not read.
    public func visionImage() throws(VisionError) -> VisionImage {
        switch storage {
        case .image(let image, _):
            return image
        case .bytes(let provider, let format):
            guard let format else {
                throw VisionError(
                    .unsupported,
                    "a \(bitsPerPixel)-bit image with bitmap info \(bitmapInfo.rawValue) "
                        + "cannot be read as an OpenVision image")
            }
            return try VisionImage(
                pixels: PixelBuffer(
                    data: provider.storage, width: width, height: height,
                    format: format, bytesPerRow: bytesPerRow))
        }
    }

    /// The part of the image inside `rect` (pixels, origin top-left), made integral and clipped to the image; nil
    /// when nothing of the image is inside, as Apple's.
    public func cropping(to rect: CGRect) -> CGImage? {
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        let r = rect.integral.intersection(bounds)
        guard !r.isNull, !r.isEmpty else { return nil }
        let x = Int(r.minX)
        let y = Int(r.minY)
        let w = Int(r.width)
        let h = Int(r.height)
        if w == width, h == height { return self }
        switch storage {
        case .image(let image, _):
            let region = NormalizedRect(imageRect: r, in: bounds.size, origin: .upperLeft)
            guard let cropped = try? image.cropped(to: region) else { return nil }
            return CGImage(visionImage: cropped)
        case .bytes(let provider, _):
            let bytesPerPixel = bitsPerPixel / 8
            let rowBytes = w * bytesPerPixel
            var rows = Data(count: rowBytes * h)
            let source = provider.storage
            rows.withUnsafeMutableBytes { out in
                source.withUnsafeBytes { src in
                    for row in 0..<h {
                        let from = src.baseAddress! + (y + row) * bytesPerRow + x * bytesPerPixel
                        (out.baseAddress! + row * rowBytes).copyMemory(from: from, byteCount: rowBytes)
                    }
                }
            }
            return CGImage(
                width: w, height: h, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                bytesPerRow: rowBytes, space: colorSpace!, bitmapInfo: bitmapInfo,
                provider: CGDataProvider(data: rows as CFData)!, decode: nil,
                shouldInterpolate: shouldInterpolate, intent: renderingIntent)
        }
    }

    /// The same image (images are immutable), as Apple's `copy()`.
    public func copy() -> CGImage? { self }

    /// The OpenVision pixel format of a layout, nil when it has none; the outer nil is a layout Core Graphics
    /// itself refuses.
    static func pixelFormat(
        bitsPerComponent: Int, bitsPerPixel: Int, space: CGColorSpace,
        bitmapInfo: CGBitmapInfo
    ) -> PixelFormat?? {
        guard bitsPerComponent == 8, !bitmapInfo.contains(.floatComponents),
            bitmapInfo.rawValue & CGBitmapInfo.pixelFormatMask.rawValue == 0,
            let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue),
            let order = CGImageByteOrderInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.byteOrderMask.rawValue)
        else { return nil }
        switch (space.model, bitsPerPixel) {
        case (.monochrome, 8):
            return alpha == .none ? .some(.gray8) : nil
        case (.rgb, 24):
            return alpha == .none && order != .order32Little ? .some(.rgb8) : nil
        case (.rgb, 32):
            let first = [.first, .premultipliedFirst, .noneSkipFirst].contains(alpha)
            let last = [.last, .premultipliedLast, .noneSkipLast].contains(alpha)
            guard first || last else { return nil }
            switch order {
            case .orderDefault, .order32Big: return .some(first ? .argb8 : .rgba8)
            case .order32Little: return .some(first ? .bgra8 : nil)  // ABGR in memory: no OpenVision format
            default: return nil
            }
        default:
            return nil
        }
    }
}
