import Foundation

/// What every observation has: an identity and a confidence, as Vision's `VisionObservation`.
public protocol VisionObservation: Sendable, Hashable, Codable {
    /// A unique identifier for this observation.
    var uuid: UUID { get }
    /// How confident the detector is, 0...1.
    var confidence: Float { get }
    /// The time range of the video frame the observation was made on (Vision's `VideoProcessor` sets it); nil for a
    /// still image.
    var frameTimeRange: Range<Duration>? { get set }
}

/// An observation with a normalised bounding box (lower-left origin), relative to the
/// request's region of interest.
public protocol BoundingBoxProviding {
    /// The bounding box, normalised with a lower-left origin, relative to the request's region of interest.
    var boundingBox: NormalizedRect { get }
}

/// An observation described by four corner points (normalised, lower-left origin).
public protocol QuadrilateralProviding: BoundingBoxProviding {
    /// The top-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    var topLeft: NormalizedPoint { get }
    /// The top-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    var topRight: NormalizedPoint { get }
    /// The bottom-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    var bottomRight: NormalizedPoint { get }
    /// The bottom-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    var bottomLeft: NormalizedPoint { get }
}

extension QuadrilateralProviding {
    /// The four corners, clockwise from top-left as seen upright.
    public var corners: [NormalizedPoint] { [topLeft, topRight, bottomRight, bottomLeft] }
}

/// Converts native pixel coordinates (top-left origin) within an image of the given size into
/// Vision's normalised lower-left coordinates.
struct PixelToNormalized {
    let width: Double
    let height: Double

    init(width: Int, height: Int) {
        self.width = Double(max(width, 1))
        self.height = Double(max(height, 1))
    }

    init(_ image: VisionImage) { self.init(width: image.width, height: image.height) }

    func point(_ x: Float, _ y: Float) -> NormalizedPoint { point(Double(x), Double(y)) }
    func point(_ x: Double, _ y: Double) -> NormalizedPoint {
        NormalizedPoint(x: x / width, y: 1 - y / height)
    }

    func rect(x: Double, y: Double, width w: Double, height h: Double) -> NormalizedRect {
        NormalizedRect(x: x / width, y: 1 - (y + h) / height, width: w / width, height: h / height)
    }
}
