import Foundation
import OpenVision

/// Options of `CIContext(options:)`.
public struct CIContextOption: Hashable, RawRepresentable, Sendable {
    /// The key's name.
    public let rawValue: String
    /// The option named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Render on the CPU (accepted: rendering is always OpenCV on the CPU here).
    public static let useSoftwareRenderer = CIContextOption(rawValue: "software_renderer")
    /// The working colour space (accepted: filters work on the sources' own encoding here, no linearisation;
    /// colour kernels always work in linear sRGB, as Core Image's default).
    public static let workingColorSpace = CIContextOption(rawValue: "working_color_space")
    /// The output colour space (accepted, as `workingColorSpace`).
    public static let outputColorSpace = CIContextOption(rawValue: "output_color_space")
    /// Cache intermediate images (accepted: a render computes each intermediate once and keeps none).
    public static let cacheIntermediates = CIContextOption(rawValue: "kCIContextCacheIntermediates")
}

/// Pixel layouts a `CIContext` renders to.
public struct CIFormat: Hashable, RawRepresentable, Sendable {
    /// The layout's code.
    public let rawValue: Int32
    /// The layout with code `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 8-bit RGBA, alpha premultiplied.
    public static let RGBA8 = CIFormat(rawValue: 264)
    /// 8-bit BGRA, alpha premultiplied.
    public static let BGRA8 = CIFormat(rawValue: 266)
    /// 8-bit ARGB, alpha premultiplied.
    public static let ARGB8 = CIFormat(rawValue: 516)
    /// 8-bit luminance (the red channel).
    public static let L8 = CIFormat(rawValue: 1385)
}

/// Core Image's rendering context: evaluates a `CIImage`'s recipe once, on OpenCV (each run of transforms and
/// crops one resampling), into a `CGImage`, a pixel buffer or memory. Rendering a region outside the image gives
/// transparent pixels; a region that cannot be rendered (unbounded, empty, too large) gives nil or writes nothing.
public final class CIContext: @unchecked Sendable {
    /// A context (one renderer on Linux: every context renders alike).
    public init() {}

    /// A context (the options are accepted, see `CIContextOption`).
    public init(options: [CIContextOption: Any]?) {}

    /// The image's pixels in `fromRect` (Core Image coordinates) as an 8-bit RGBA `CGImage` with premultiplied
    /// alpha, its top row the rect's top; nil when the rect is null, infinite or empty.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: nil)
    }

    /// The image's pixels in `fromRect` as a `CGImage` of `format` (RGBA8, BGRA8, ARGB8 premultiplied, or L8).
    public func createCGImage(
        _ image: CIImage, from fromRect: CGRect, format: CIFormat,
        colorSpace: CGColorSpace?
    ) -> CGImage? {
        guard let layout = Self.layout(format), let pixels = try? image.recipe.render(in: fromRect, format: layout.0)
        else { return nil }
        let gray = layout.0 == .gray8
        let space = gray ? CGColorSpaceCreateDeviceGray() : (colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB)!)
        return CGImage(
            width: pixels.width, height: pixels.height, bitsPerComponent: 8,
            bitsPerPixel: layout.0.bytesPerPixel * 8, bytesPerRow: pixels.bytesPerRow, space: space,
            bitmapInfo: layout.1, provider: CGDataProvider(data: pixels.data as CFData)!, decode: nil,
            shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Renders the image's region (0, 0, width, height) into `buffer` (its top row the region's top); see
    /// `render(_:to:bounds:colorSpace:)`.
    public func render(_ image: CIImage, to buffer: CVPixelBuffer) {
        render(
            image, to: buffer,
            bounds: CGRect(
                x: 0, y: 0, width: CVPixelBufferGetWidth(buffer),
                height: CVPixelBufferGetHeight(buffer)), colorSpace: nil)
    }

    /// Renders the image's region `bounds` into the top-left of `buffer`: 32BGRA, 32RGBA, 32ARGB (premultiplied),
    /// 24RGB, 24BGR (over black) or OneComponent8 (the red channel). A buffer of another format, or a region that
    /// cannot be rendered, is left as it was (docs/porting.md).
    public func render(_ image: CIImage, to buffer: CVPixelBuffer, bounds: CGRect, colorSpace: CGColorSpace?) {
        let format: PixelFormat
        switch CVPixelBufferGetPixelFormatType(buffer) {
        case kCVPixelFormatType_32BGRA: format = .bgra8
        case kCVPixelFormatType_32RGBA: format = .rgba8
        case kCVPixelFormatType_32ARGB: format = .argb8
        case kCVPixelFormatType_24RGB: format = .rgb8
        case kCVPixelFormatType_24BGR: format = .bgr8
        case kCVPixelFormatType_OneComponent8: format = .gray8
        default: return
        }
        guard let pixels = try? image.recipe.render(in: bounds, format: format) else { return }
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return }
        Self.copy(
            pixels, to: base, bytesPerRow: CVPixelBufferGetBytesPerRow(buffer),
            width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer))
    }

    /// Renders the image's region `bounds` into memory at `data` (rows of `rowBytes`, top row first) in `format`;
    /// nothing is written when the format is not one of `CIFormat`'s or the region cannot be rendered.
    public func render(
        _ image: CIImage, toBitmap data: UnsafeMutableRawPointer, rowBytes: Int, bounds: CGRect,
        format: CIFormat, colorSpace: CGColorSpace?
    ) {
        guard let layout = Self.layout(format), let pixels = try? image.recipe.render(in: bounds, format: layout.0)
        else { return }
        Self.copy(pixels, to: data, bytesPerRow: rowBytes, width: pixels.width, height: pixels.height)
    }

    /// The OpenVision layout and Core Graphics bitmap info of a format.
    private static func layout(_ format: CIFormat) -> (PixelFormat, CGBitmapInfo)? {
        switch format {
        case .RGBA8: (.rgba8, CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))
        case .ARGB8: (.argb8, CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue))
        case .BGRA8:
            (.bgra8, CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue).union(.byteOrder32Little))
        case .L8: (.gray8, CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue))
        default: nil
        }
    }

    /// Copies rendered rows into memory, as many as fit `width` × `height`.
    private static func copy(
        _ pixels: PixelBuffer, to base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int,
        height: Int
    ) {
        let rowBytes = min(pixels.width, width) * pixels.format.bytesPerPixel
        pixels.data.withUnsafeBytes { src in
            for row in 0..<min(pixels.height, height) {
                (base + row * bytesPerRow).copyMemory(
                    from: src.baseAddress! + row * pixels.bytesPerRow,
                    byteCount: rowBytes)
            }
        }
    }
}
