import CoreGraphics
import Foundation
import ImageIO
import OpenVision

extension MLFeatureValue {
    /// `image`, shown with `orientation` (EXIF), as a `pixelsWide` × `pixelsHigh` image input (Core ML's
    /// `init(cgImage:orientation:pixelsWide:pixelsHigh:pixelFormatType:options:)`): turned upright first (OpenVision's
    /// `VisionImage.oriented`, exact pixel permutations), then cropped and fitted as
    /// `init(cgImage:pixelsWide:pixelsHigh:pixelFormatType:options:)` says. Errors as that initializer's.
    public convenience init(
        cgImage image: CGImage, orientation: CGImagePropertyOrientation, pixelsWide: Int, pixelsHigh: Int,
        pixelFormatType: OSType, options: [ImageOption: Any]? = nil
    ) throws {
        try self.init(
            cgImage: Self.upright(image, orientation), pixelsWide: pixelsWide, pixelsHigh: pixelsHigh,
            pixelFormatType: pixelFormatType, options: options)
    }

    /// `image` sized to an input's constraint (Core ML's `init(cgImage:constraint:options:)`).
    public convenience init(cgImage image: CGImage, constraint: MLImageConstraint, options: [ImageOption: Any]? = nil)
        throws
    {
        try self.init(
            cgImage: image, pixelsWide: constraint.pixelsWide, pixelsHigh: constraint.pixelsHigh,
            pixelFormatType: constraint.pixelFormatType, options: options)
    }

    /// `image`, shown with `orientation`, sized to an input's constraint (Core ML's
    /// `init(cgImage:orientation:constraint:options:)`), as CoreMLHelpers' `featureValue(fromCGImage:…)` calls it.
    public convenience init(
        cgImage image: CGImage, orientation: CGImagePropertyOrientation, constraint: MLImageConstraint,
        options: [ImageOption: Any]? = nil
    ) throws {
        try self.init(
            cgImage: Self.upright(image, orientation), pixelsWide: constraint.pixelsWide,
            pixelsHigh: constraint.pixelsHigh, pixelFormatType: constraint.pixelFormatType, options: options)
    }

    /// The image file at `url`, shown with `orientation`, as a `pixelsWide` × `pixelsHigh` image input (Core ML's
    /// `init(imageAt:orientation:pixelsWide:pixelsHigh:pixelFormatType:options:)`). `MLModelError.io` for an
    /// unreadable file.
    public convenience init(
        imageAt url: URL, orientation: CGImagePropertyOrientation, pixelsWide: Int, pixelsHigh: Int,
        pixelFormatType: OSType, options: [ImageOption: Any]? = nil
    ) throws {
        try self.init(
            cgImage: Self.file(url), orientation: orientation, pixelsWide: pixelsWide, pixelsHigh: pixelsHigh,
            pixelFormatType: pixelFormatType, options: options)
    }

    /// The image file at `url`, shown with `orientation`, sized to an input's constraint (Core ML's
    /// `init(imageAt:orientation:constraint:options:)`).
    public convenience init(
        imageAt url: URL, orientation: CGImagePropertyOrientation, constraint: MLImageConstraint,
        options: [ImageOption: Any]? = nil
    ) throws {
        try self.init(cgImage: Self.file(url), orientation: orientation, constraint: constraint, options: options)
    }

    private static func upright(_ image: CGImage, _ orientation: CGImagePropertyOrientation) throws -> CGImage {
        if orientation == .up { return image }
        do { return CGImage(visionImage: try image.visionImage().oriented(orientation)) } catch {
            throw MLModelError.featureType("cannot turn the image upright from \(orientation): \(error.message)")
        }
    }

    private static func file(_ url: URL) throws -> CGImage {
        do { return CGImage(visionImage: try VisionImage(contentsOf: url)) } catch {
            throw MLModelError.io("cannot read the image \(url.path): \(error.message)")
        }
    }
}
