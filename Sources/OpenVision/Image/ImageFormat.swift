/// The encoded image formats OpenVision reads.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, webp, bmp, tiff
}
