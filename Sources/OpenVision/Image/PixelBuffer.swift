import Foundation

/// Raw, uncompressed pixels: the Linux counterpart of a `CVPixelBuffer`.
public struct PixelBuffer: Sendable {
    /// The pixel bytes, `height` rows of `bytesPerRow` bytes (NV12: 1.5 × `height` rows).
    public var data: Data
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Row stride in bytes (at least `width × format.bytesPerPixel`).
    public var bytesPerRow: Int
    /// How each pixel is laid out.
    public var format: PixelFormat

    /// Describes existing pixel bytes; `bytesPerRow` defaults to tightly packed rows.
    public init(data: Data, width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil) {
        self.data = data
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = bytesPerRow ?? width * format.bytesPerPixel
    }

    /// The number of bytes the layout needs.
    var requiredByteCount: Int {
        let rows = format == .nv12 ? height + height / 2 : height
        guard rows > 0 else { return 0 }
        return (rows - 1) * bytesPerRow + width * format.bytesPerPixel
    }
}
