import CoreGraphics
import Foundation
import OpenVision

/// The state of an image source.
public enum CGImageSourceStatus: Int32, Sendable {
    /// The data ends before the image does.
    case statusUnexpectedEOF = -5
    /// The data is malformed.
    case statusInvalidData = -4
    /// The data is not an image of a known type.
    case statusUnknownType = -3
    /// Reading is under way (never, here).
    case statusReadingHeader = -2
    /// The data is incomplete (never, here: sources are made from whole files or bytes).
    case statusIncomplete = -1
    /// The image can be read.
    case statusComplete = 0
}

/// ImageIO's image source: an encoded image file or bytes (JPEG, PNG, WebP, BMP, TIFF) read with OpenVision's
/// header parser and decoders. Holds one image (the first of a multi-page file); a source of bytes that are not a
/// readable image has a count of 0 and makes no image. Immutable, a reference type, as Apple's.
public final class CGImageSource: @unchecked Sendable {
    /// The encoded bytes.
    let data: Data
    /// The header, or why the bytes are not a readable image.
    let header: Result<ImageHeader, VisionError>

    init(data: Data) {
        self.data = data
        header = Result { () throws(VisionError) -> ImageHeader in try ImageHeader(data: data) }
    }

    /// The header when the bytes are a readable image of at least one pixel.
    var readableHeader: ImageHeader? {
        guard case .success(let h) = header, h.width > 0, h.height > 0 else { return nil }
        return h
    }

    /// The image type's identifier.
    static func typeIdentifier(_ format: ImageFormat) -> CFString {
        switch format {
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .webp: "org.webmproject.webp"
        case .bmp: "com.microsoft.bmp"
        case .tiff: "public.tiff"
        }
    }
}

/// A source of the image file at `url`; nil when the file cannot be read (it is mapped, not copied, when it can).
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let data = try? Data(contentsOf: url as URL, options: .mappedIfSafe), !data.isEmpty else { return nil }
    return CGImageSource(data: data)
}

/// A source of encoded image bytes; nil for empty data.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    let bytes = data as Data
    return bytes.isEmpty ? nil : CGImageSource(data: bytes)
}

/// The number of images: 1 for a readable image (the first of a multi-page file), 0 otherwise.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    isrc.readableHeader == nil ? 0 : 1
}

/// The image type's identifier (`"public.jpeg"`, `"public.png"`, `"org.webmproject.webp"`, `"com.microsoft.bmp"`,
/// `"public.tiff"`), nil when the bytes are not a readable image.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? {
    isrc.readableHeader.map { CGImageSource.typeIdentifier($0.format) }
}

/// `.statusComplete` for a readable image; `.statusUnknownType` for bytes of no known image type,
/// `.statusInvalidData` for a malformed one.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus {
    switch isrc.header {
    case .success: return isrc.readableHeader == nil ? .statusInvalidData : .statusComplete
    case .failure(let error): return error.code == .invalidImage ? .statusInvalidData : .statusUnknownType
    }
}

/// The status of image `index` (see `CGImageSourceGetStatus`; `.statusInvalidData` for an index past the count).
public func CGImageSourceGetStatusAtIndex(_ isrc: CGImageSource, _ index: Int) -> CGImageSourceStatus {
    index == 0 ? CGImageSourceGetStatus(isrc) : .statusInvalidData
}

/// The properties of the image at `index`: `kCGImagePropertyPixelWidth` and `…PixelHeight` (stored size), and when
/// the file has one, `kCGImagePropertyOrientation` (1...8) and the same in `kCGImagePropertyTIFFDictionary`; nil for
/// an index past the count.
public func CGImageSourceCopyPropertiesAtIndex(
    _ isrc: CGImageSource, _ index: Int,
    _ options: CFDictionary?
) -> CFDictionary? {
    guard index == 0, let header = isrc.readableHeader else { return nil }
    var properties: [String: Any] = [
        kCGImagePropertyPixelWidth as String: NSNumber(value: header.width),
        kCGImagePropertyPixelHeight as String: NSNumber(value: header.height),
    ]
    if let orientation = header.orientation {
        properties[kCGImagePropertyOrientation as String] = NSNumber(value: orientation.rawValue)
        properties[kCGImagePropertyTIFFDictionary as String] =
            [kCGImagePropertyTIFFOrientation as String: NSNumber(value: orientation.rawValue)] as NSDictionary
    }
    return properties as NSDictionary
}

/// The container's properties: `kCGImagePropertyFileSize`.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    [kCGImagePropertyFileSize as String: NSNumber(value: isrc.data.count)] as NSDictionary
}

/// The type identifiers sources read.
public func CGImageSourceCopyTypeIdentifiers() -> CFArray {
    ImageFormat.allCases.map { CGImageSource.typeIdentifier($0) } as NSArray
}
