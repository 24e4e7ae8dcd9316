/// Layouts of raw pixel buffers that `ImageRequestHandler(pixels:)` accepts.
public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// 3 bytes per pixel: red, green, blue.
    case rgb8
    /// 3 bytes per pixel: blue, green, red (OpenCV's order).
    case bgr8
    /// 4 bytes per pixel: red, green, blue, alpha (alpha is ignored).
    case rgba8
    /// 4 bytes per pixel: blue, green, red, alpha (alpha is ignored).
    case bgra8
    /// 4 bytes per pixel: alpha, red, green, blue (Core Video's 32ARGB; alpha is ignored).
    case argb8
    /// 1 byte per pixel: luma.
    case gray8
    /// 4:2:0 bi-planar as cameras deliver it: a full-size Y plane followed by an interleaved
    /// half-size UV plane, both with the same row stride. Width and height must be even.
    case nv12

    /// Bytes per pixel of the first plane.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb8, .bgr8: 3
        case .rgba8, .bgra8, .argb8: 4
        case .gray8, .nv12: 1
        }
    }
}
