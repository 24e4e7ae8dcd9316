import CoreGraphics
import Foundation

// ImageIO's property keys (Apple's string values), for `CGImageSourceCopyPropertiesAtIndex`, the options of
// `CGImageSourceCreateThumbnailAtIndex` and the properties of `CGImageDestinationAddImage`.

/// The stored width in pixels (a number).
public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// The stored height in pixels (a number).
public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// The EXIF orientation, 1...8 (a number; present when the file has one).
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// The TIFF (and EXIF IFD0) properties: a dictionary holding the orientation.
public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
/// The TIFF orientation inside `kCGImagePropertyTIFFDictionary` (a number).
public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
/// The file's size in bytes, in `CGImageSourceCopyProperties`.
public let kCGImagePropertyFileSize: CFString = "FileSize"

/// Thumbnail option: the largest side in pixels (a number).
public let kCGImageSourceThumbnailMaxPixelSize: CFString = "kCGImageSourceThumbnailMaxPixelSize"
/// Thumbnail option: turn the thumbnail upright by the file's orientation (a Boolean).
public let kCGImageSourceCreateThumbnailWithTransform: CFString = "kCGImageSourceCreateThumbnailWithTransform"
/// Thumbnail option: make the thumbnail from the full image even when the file embeds one (always the case here).
public let kCGImageSourceCreateThumbnailFromImageAlways: CFString = "kCGImageSourceCreateThumbnailFromImageAlways"
/// Thumbnail option: make the thumbnail from the full image when the file embeds none (always the case here).
public let kCGImageSourceCreateThumbnailFromImageIfAbsent: CFString = "kCGImageSourceCreateThumbnailFromImageIfAbsent"
/// Source option: cache the decoded image (images are always decoded on request here; accepted, no effect).
public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Source option: a type hint (the bytes say their type here; accepted, no effect).
public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"

/// Destination property: JPEG and WebP quality, 0...1 (a number; 1 is the best).
public let kCGImageDestinationLossyCompressionQuality: CFString = "kCGImageDestinationLossyCompressionQuality"

/// Reads a number (an `NSNumber`, or a Swift number bridged to one) from an options dictionary.
func number(_ options: CFDictionary?, _ key: CFString) -> NSNumber? {
    guard let value = options?[key] else { return nil }
    return value as? NSNumber
}
