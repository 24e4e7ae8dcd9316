import CoreGraphics
import OpenVision

// The images of a source, decoded by OpenVision (its header-only functions are in CGImageSource.swift, which the
// image-header fuzz target compiles on its own).

/// The image at `index` as stored — its EXIF orientation NOT applied, as Apple's (read it from the properties) —
/// or nil for an index past the count, an image that does not decode, or one of more than
/// `VisionImage.defaultMaximumPixelCount` pixels.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard index == 0, isrc.readableHeader != nil, let image = try? VisionImage(data: isrc.data, orientation: .up) else {
        return nil
    }
    return CGImage(visionImage: image)
}

/// A thumbnail of the image at `index`: the whole image scaled so that its larger side is at most
/// `kCGImageSourceThumbnailMaxPixelSize` (never enlarged; the full size without that option), turned upright when
/// `kCGImageSourceCreateThumbnailWithTransform` is true. Nil as `CGImageSourceCreateImageAtIndex` is.
public func CGImageSourceCreateThumbnailAtIndex(
    _ isrc: CGImageSource, _ index: Int,
    _ options: CFDictionary?
) -> CGImage? {
    guard index == 0, isrc.readableHeader != nil else { return nil }
    let upright = number(options, kCGImageSourceCreateThumbnailWithTransform)?.boolValue ?? false
    guard var image = try? VisionImage(data: isrc.data, orientation: upright ? nil : .up) else { return nil }
    if let limit = number(options, kCGImageSourceThumbnailMaxPixelSize)?.intValue, limit > 0 {
        let side = max(image.width, image.height)
        if side > limit {
            let scale = Double(limit) / Double(side)
            let w = max(1, Int((Double(image.width) * scale).rounded()))
            let h = max(1, Int((Double(image.height) * scale).rounded()))
            guard let resized = try? image.resized(width: w, height: h) else { return nil }
            image = resized
        }
    }
    return CGImage(visionImage: image)
}
