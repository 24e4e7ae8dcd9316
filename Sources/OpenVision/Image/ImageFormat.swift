/// The encoded image formats OpenVision reads.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// JPEG, PNG, WebP, BMP and TIFF files.
    case jpeg, png, webp, bmp, tiff
}
