import CoreGraphics
import OpenVision

/// ImageIO's image destination: one image encoded as JPEG, PNG, WebP, BMP or TIFF with OpenVision's encoders,
/// written to a file or appended to mutable data at `CGImageDestinationFinalize`. Metadata (EXIF, orientation, …)
/// and alpha are not written; `kCGImageDestinationLossyCompressionQuality` is honoured.
public final class CGImageDestination: @unchecked Sendable {
    private enum Target {
        case url(URL)
        case data(NSMutableData)
    }

    private let target: Target
    private let format: ImageFormat
    private let lock = NSLock()
    private var image: (CGImage, quality: Int?)?
    private var finalized = false

    private init?(target: Target, type: CFString, count: Int) {
        guard count == 1,
            let format = ImageFormat.allCases.first(where: {
                CGImageSource.typeIdentifier($0).isEqual(to: type as String)
            })
        else { return nil }
        self.target = target
        self.format = format
    }

    /// A destination writing one image of `type` to the file at `url`; nil for another type or count.
    static func make(url: URL, type: CFString, count: Int) -> CGImageDestination? {
        CGImageDestination(target: .url(url), type: type, count: count)
    }

    /// A destination appending one image of `type` to `data`; nil for another type or count.
    static func make(data: NSMutableData, type: CFString, count: Int) -> CGImageDestination? {
        CGImageDestination(target: .data(data), type: type, count: count)
    }

    /// Sets the image (a second one replaces the first; only one is written).
    func add(_ image: CGImage, properties: CFDictionary?) {
        let quality = number(properties, kCGImageDestinationLossyCompressionQuality)
            .map { max(1, min(100, Int(($0.doubleValue * 100).rounded()))) }
        lock.lock()
        defer { lock.unlock() }
        self.image = (image, quality)
    }

    /// Encodes and writes the image; false without an image, when it cannot be encoded or written, or when already
    /// finalized.
    func finalize() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !finalized, let (image, quality) = image,
            let bytes = try? image.visionImage().encoded(as: format, quality: quality)
        else { return false }
        finalized = true
        switch target {
        case .url(let url):
            do { try bytes.write(to: url, options: .atomic) } catch { return false }
        case .data(let data):
            data.append(bytes)
        }
        return true
    }
}

/// A destination writing `count` (1) image of `type` (`"public.jpeg"`, `"public.png"`, `"org.webmproject.webp"`,
/// `"com.microsoft.bmp"`, `"public.tiff"`) to the file at `url`; nil for another type or count.
public func CGImageDestinationCreateWithURL(
    _ url: CFURL, _ type: CFString, _ count: Int,
    _ options: CFDictionary?
) -> CGImageDestination? {
    CGImageDestination.make(url: url as URL, type: type, count: count)
}

/// A destination appending `count` (1) image of `type` to `data`; nil for another type or count.
public func CGImageDestinationCreateWithData(
    _ data: CFMutableData, _ type: CFString, _ count: Int,
    _ options: CFDictionary?
) -> CGImageDestination? {
    CGImageDestination.make(data: data, type: type, count: count)
}

/// Adds the image, with `kCGImageDestinationLossyCompressionQuality` (0...1) among its properties if given.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.add(image, properties: properties)
}

/// Encodes and writes the image: true on success; false without an image, on an encoding or I/O failure, or when
/// called twice.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    idst.finalize()
}

/// The type identifiers destinations write.
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray {
    CGImageSourceCopyTypeIdentifiers()
}
