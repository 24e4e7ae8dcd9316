internal import CNative
import Foundation

/// A decoded image held in memory as 8-bit BGR pixels, upright (orientation already applied).
/// Immutable and safe to share between tasks; the native pixels are freed when the last
/// reference goes away.
public final class VisionImage: @unchecked Sendable {
    // The handle is never mutated after init; the native gray cache is computed under call_once.
    let handle: OpaquePointer

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// What the decoder warned about while decoding this image from a file or bytes: a damaged
    /// JPEG that still decodes (truncated, corrupt data) has its missing part filled with gray and
    /// says so here, e.g. "Premature end of JPEG file". Empty for a clean decode and for images made
    /// any other way. `strictDecoding` turns the first warning into an `invalidImage` error instead.
    public let decoderWarnings: [String]

    /// The size in pixels.
    public var size: CGSize { CGSize(width: width, height: height) }

    /// True when only the gray (luma) plane is held: such images come from handlers whose
    /// requests need no colour. Drawing on a copy makes it colour.
    public var isGrayscale: Bool { ov_image_is_gray(handle) != 0 }

    /// Takes ownership of a native image (transfer ownership: freed in deinit).
    init(owning handle: OpaquePointer) {
        self.handle = handle
        self.width = Int(ov_image_width(handle))
        self.height = Int(ov_image_height(handle))
        self.decoderWarnings = []
    }

    deinit { ov_image_free(handle) }

    /// Default limit on the pixels an image may declare before it is decoded: 100 megapixels.
    public static let defaultMaximumPixelCount = 100_000_000

    /// Decodes JPEG, PNG, WebP, BMP or TIFF bytes and turns the pixels upright.
    /// - Parameters:
    ///   - data: the encoded image, as read from a file.
    ///   - orientation: overrides the file's EXIF orientation when given.
    ///   - maximumPixelCount: images whose header declares more pixels are refused before decoding.
    ///   - strictDecoding: a decoder warning (a damaged JPEG) is an `invalidImage` error, not a
    ///     gray-padded image with `decoderWarnings`.
    public convenience init(
        data: Data, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount,
        strictDecoding: Bool = false
    ) throws(VisionError) {
        let header = try Self.checkedHeader(data, maximumPixelCount: maximumPixelCount)
        try self.init(
            data: data, header: header, orientation: orientation, lumaOnly: false, reduction: 1,
            strictDecoding: strictDecoding)
    }

    /// The header of `data`, refused when it declares an empty size or more than `maximumPixelCount` pixels.
    static func checkedHeader(_ data: Data, maximumPixelCount: Int) throws(VisionError) -> ImageHeader {
        let header = try ImageHeader.parse(data)
        guard header.width > 0, header.height > 0 else {
            throw VisionError(.invalidImage, "the image declares an empty size \(header.width)×\(header.height)")
        }
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw VisionError(
                .imageTooLarge,
                "the image declares \(header.width)×\(header.height) pixels, "
                    + "more than the limit of \(maximumPixelCount); raise maximumPixelCount to accept it")
        }
        return header
    }

    /// Decodes `data` whose checked header is `header`; `reduction` 2, 4 or 8 decodes a JPEG at that
    /// fraction of its size (each side rounded up), which skips most of the decoding work.
    init(
        data: Data, header: ImageHeader, orientation: ImageOrientation?, lumaOnly: Bool, reduction: Int,
        strictDecoding: Bool
    ) throws(VisionError) {
        var decoded: OpaquePointer?
        let status = data.withUnsafeBytes {
            ov_image_decode(
                $0.baseAddress, $0.count, lumaOnly ? 1 : 0, Int32(reduction), strictDecoding ? 1 : 0, &decoded)
        }
        guard status == OV_OK, let decoded else {
            var error = NativeError.error(
                for: status, codes: [OV_ERR_INTERNAL: .invalidImage, OV_ERR_INVALID_ARGUMENT: .invalidImage])
            error.message = "cannot decode \(header.format.rawValue.uppercased()) image: \(error.message)"
            throw error
        }
        let warnings = (0..<ov_image_warning_count(decoded)).compactMap {
            ov_image_warning(decoded, $0).map { String(cString: $0) }
        }
        let handle = try Self.upright(decoded, orientation: orientation ?? header.orientation ?? .up)
        self.handle = handle
        self.width = Int(ov_image_width(handle))
        self.height = Int(ov_image_height(handle))
        self.decoderWarnings = warnings
    }

    /// Reads and decodes the image file at `url` (see `init(data:orientation:maximumPixelCount:)`).
    public convenience init(
        contentsOf url: URL, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount,
        strictDecoding: Bool = false
    ) throws(VisionError) {
        let data = try Self.readFile(url)
        do {
            try self.init(
                data: data, orientation: orientation, maximumPixelCount: maximumPixelCount,
                strictDecoding: strictDecoding)
        } catch {
            throw error.attributed(to: url.path)
        }
    }

    /// Copies raw pixels and turns them upright according to `orientation`.
    public convenience init(
        pixels: PixelBuffer, orientation: ImageOrientation = .up,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    ) throws(VisionError) {
        guard pixels.width > 0, pixels.height > 0 else {
            throw VisionError(.invalidArgument, "pixel buffer size \(pixels.width)×\(pixels.height) is empty")
        }
        let (count, overflow) = pixels.width.multipliedReportingOverflow(by: pixels.height)
        guard !overflow, count <= maximumPixelCount else {
            throw VisionError(
                .imageTooLarge,
                "pixel buffer of \(pixels.width)×\(pixels.height) exceeds the limit of \(maximumPixelCount) pixels")
        }
        guard pixels.bytesPerRow >= pixels.width * pixels.format.bytesPerPixel else {
            throw VisionError(
                .invalidArgument,
                "bytesPerRow \(pixels.bytesPerRow) is smaller than a row of \(pixels.width) \(pixels.format) pixels")
        }
        guard pixels.data.count >= pixels.requiredByteCount else {
            throw VisionError(
                .invalidArgument,
                "pixel buffer holds \(pixels.data.count) bytes; \(pixels.width)×\(pixels.height) \(pixels.format) needs \(pixels.requiredByteCount)"
            )
        }
        var native: OpaquePointer?
        let status = pixels.data.withUnsafeBytes {
            ov_image_from_pixels(
                $0.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.bytesPerRow,
                pixels.format.native, &native)
        }
        try NativeError.check(status, "cannot import pixels")
        try self.init(owning: native!, orientation: orientation)
    }

    /// Takes ownership of `handle` and applies `orientation` (the original is freed if a copy is made).
    private convenience init(owning handle: OpaquePointer, orientation: ImageOrientation) throws(VisionError) {
        self.init(owning: try Self.upright(handle, orientation: orientation))
    }

    /// `handle` turned upright: itself for `.up`, else a new image (and `handle` is freed).
    private static func upright(_ handle: OpaquePointer, orientation: ImageOrientation) throws(VisionError)
        -> OpaquePointer
    {
        if orientation == .up { return handle }
        var upright: OpaquePointer?
        let status = ov_image_orient(handle, Int32(orientation.rawValue), &upright)
        ov_image_free(handle)
        try NativeError.check(status, "cannot apply orientation \(orientation)")
        return upright!
    }

    static func readFile(_ url: URL) throws(VisionError) -> Data {
        let path = url.path
        // Missing, a symlink loop, unreadable or a directory: each says so.
        let size = try FileStatus.requireFile(path, what: "image file")
        // An empty file is simply empty (Foundation's reader leaks its 4 KiB buffer on one).
        if size == 0 { return Data() }
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            if let posix = error as? CocoaError, let underlying = posix.underlying as? POSIXError {
                throw FileStatus.error(underlying.code.rawValue, path: path, what: "image file")
            }
            throw VisionError(.ioError, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    // MARK: Derived images

    /// A copy of the pixels inside `rect` (normalised, lower-left origin); at least 1×1.
    public func cropped(to rect: NormalizedRect) throws(VisionError) -> VisionImage {
        let r = rect.toImageCoordinates(size, origin: .upperLeft)
        let x0 = Int(r.minX.rounded())
        let y0 = Int(r.minY.rounded())
        let x1 = max(x0 + 1, Int(r.maxX.rounded()))
        let y1 = max(y0 + 1, Int(r.maxY.rounded()))
        var out: OpaquePointer?
        try NativeError.check(ov_image_crop(handle, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0), &out), "crop")
        return VisionImage(owning: out!)
    }

    /// A copy scaled to `width` × `height` pixels.
    public func resized(width: Int, height: Int) throws(VisionError) -> VisionImage {
        var out: OpaquePointer?
        try NativeError.check(ov_image_resize(handle, Int32(width), Int32(height), &out), "resize")
        return VisionImage(owning: out!)
    }

    /// A copy with `orientation` applied (e.g. `.right` turns it 90° clockwise).
    public func oriented(_ orientation: ImageOrientation) throws(VisionError) -> VisionImage {
        var out: OpaquePointer?
        try NativeError.check(ov_image_orient(handle, Int32(orientation.rawValue), &out), "orient")
        return VisionImage(owning: out!)
    }

    /// A deep copy (for drawing on without touching the original).
    func copy() throws(VisionError) -> VisionImage {
        var out: OpaquePointer?
        try NativeError.check(ov_image_clone(handle, &out), "copy")
        return VisionImage(owning: out!)
    }

    // MARK: Pixels and encoding

    /// The pixels as packed RGB bytes, row after row (width × 3 bytes per row).
    public func rgbData() -> Data {
        var stride = 0
        var out = Data(count: width * height * 3)
        guard let base = ov_image_bgr(handle, &stride) else {
            // Luma-only: repeat the gray value in each channel.
            guard let gray = ov_image_gray(handle, &stride) else { return Data() }
            out.withUnsafeMutableBytes { dst in
                let d = dst.bindMemory(to: UInt8.self)
                for y in 0..<height {
                    for x in 0..<width {
                        let v = gray[y * stride + x]
                        let o = (y * width + x) * 3
                        d[o] = v
                        d[o + 1] = v
                        d[o + 2] = v
                    }
                }
            }
            return out
        }
        out.withUnsafeMutableBytes { dst in
            let d = dst.bindMemory(to: UInt8.self)
            for y in 0..<height {
                let row = base + y * stride
                for x in 0..<width {
                    let o = (y * width + x) * 3
                    d[o] = row[x * 3 + 2]
                    d[o + 1] = row[x * 3 + 1]
                    d[o + 2] = row[x * 3]
                }
            }
        }
        return out
    }

    /// Calls `body` with the cached 8-bit gray plane and its row stride; the pointer is valid only inside.
    func withGrayPixels<R>(_ body: (UnsafePointer<UInt8>, Int) throws(VisionError) -> R) throws(VisionError) -> R {
        var stride = 0
        guard let base = ov_image_gray(handle, &stride) else {
            throw VisionError(.internalError, "gray conversion failed: \(String(cString: ov_last_error()))")
        }
        return try body(base, stride)
    }

    /// Encodes as PNG, JPEG, WebP, BMP or TIFF. `quality` (1...100) applies to JPEG and WebP.
    public func encoded(as format: ImageFormat, quality: Int? = nil) throws(VisionError) -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ext = format == .jpeg ? ".jpg" : "." + format.rawValue
        try NativeError.check(ov_image_encode(handle, ext, Int32(quality ?? 0), &bytes, &length), "encode \(format)")
        defer { ov_free(bytes) }
        return Data(bytes: bytes!, count: length)
    }

    /// Encodes in the format named by the file's extension and writes it to `url`.
    public func write(to url: URL, quality: Int? = nil) throws(VisionError) {
        let ext = url.pathExtension.lowercased()
        let format: ImageFormat
        switch ext {
        case "jpg", "jpeg": format = .jpeg
        case "png": format = .png
        case "webp": format = .webp
        case "bmp": format = .bmp
        case "tif", "tiff": format = .tiff
        default:
            throw VisionError(
                .invalidArgument, "unknown image extension '.\(ext)' (use .png, .jpg, .webp, .bmp or .tiff)")
        }
        let data = try encoded(as: format, quality: quality)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw VisionError(.ioError, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
