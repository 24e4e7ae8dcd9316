import Foundation

/// A media type code (`kCMMediaType_Video`, …).
public typealias CMMediaType = FourCharCode
/// The video media type (`'vide'`).
public let kCMMediaType_Video: CMMediaType = 0x7669_6465

/// A video's size in pixels.
public struct CMVideoDimensions: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int32
    /// Height in pixels.
    public var height: Int32
    /// Dimensions of this size.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}

/// What a sample buffer's media is: here the video format of an image buffer (its size and pixel format), as
/// `CMVideoFormatDescriptionCreateForImageBuffer` makes it. Immutable, a reference type, as Apple's.
public final class CMFormatDescription: Hashable, @unchecked Sendable {
    /// The media type (`kCMMediaType_Video`).
    let mediaType: CMMediaType
    /// The pixel format code.
    let mediaSubType: FourCharCode
    /// The size.
    let dimensions: CMVideoDimensions

    /// The video format of `imageBuffer` (Apple's throwing initializer).
    public init(imageBuffer: CVImageBuffer) throws {
        mediaType = kCMMediaType_Video
        mediaSubType = CVPixelBufferGetPixelFormatType(imageBuffer)
        dimensions = CMVideoDimensions(
            width: Int32(CVPixelBufferGetWidth(imageBuffer)),
            height: Int32(CVPixelBufferGetHeight(imageBuffer)))
    }

    /// Two descriptions are equal when their type, subtype and size are.
    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        lhs.mediaType == rhs.mediaType && lhs.mediaSubType == rhs.mediaSubType && lhs.dimensions == rhs.dimensions
    }

    /// Hashes the type, subtype and size.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaType)
        hasher.combine(mediaSubType)
        hasher.combine(dimensions)
    }
}

/// A video format description (the same class, as on Apple platforms).
public typealias CMVideoFormatDescription = CMFormatDescription

/// Makes the video format of `imageBuffer` into `formatDescriptionOut`; returns 0.
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = try? CMFormatDescription(imageBuffer: imageBuffer)
    return 0
}

/// Whether `imageBuffer` has the size and pixel format `videoDesc` describes.
public func CMVideoFormatDescriptionMatchesImageBuffer(
    _ videoDesc: CMVideoFormatDescription,
    imageBuffer: CVImageBuffer
) -> Bool {
    (try? CMFormatDescription(imageBuffer: imageBuffer)) == videoDesc
}

/// The media type (`kCMMediaType_Video`).
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaType }

/// The media subtype: a video's pixel format code.
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.mediaSubType }

/// A video's size in pixels.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}
