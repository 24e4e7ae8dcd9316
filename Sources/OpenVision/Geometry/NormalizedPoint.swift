import Foundation

/// A point in normalised image coordinates: 0...1 on both axes, origin at the lower-left
/// corner, as Vision reports them.
public struct NormalizedPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal position: 0 at the left edge, 1 at the right.
    public var x: Double
    /// Vertical position: 0 at the bottom edge, 1 at the top.
    public var y: Double

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The normalised point for a pixel position in an image of `imageSize` whose origin is `origin`.
    public init(imagePoint: CGPoint, in imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) {
        let nx = imageSize.width > 0 ? Double(imagePoint.x / imageSize.width) : 0
        var ny = imageSize.height > 0 ? Double(imagePoint.y / imageSize.height) : 0
        if origin == .upperLeft { ny = 1 - ny }
        self.init(x: nx, y: ny)
    }

    /// The pixel position of this point in an image of `imageSize`, in the convention `origin`.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGPoint {
        let py = origin == .lowerLeft ? y : 1 - y
        return CGPoint(x: x * Double(imageSize.width), y: py * Double(imageSize.height))
    }

    /// This point, given relative to `regionOfInterest`, expressed relative to the full image.
    public func toFullImage(fromRegionOfInterest roi: NormalizedRect) -> NormalizedPoint {
        NormalizedPoint(x: roi.x + x * roi.width, y: roi.y + y * roi.height)
    }

    /// The value as short text, for logs and command-line output.
    public var description: String { "(\(x.formatted4), \(y.formatted4))" }
}

extension Double {
    var formatted4: String { String(format: "%.4f", self) }
}
