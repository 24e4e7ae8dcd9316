/// An RGB colour for overlays.
public struct OverlayColor: Sendable, Hashable, Codable {
    /// Red intensity, 0...255.
    public var red: UInt8
    /// Green intensity, 0...255.
    public var green: UInt8
    /// Blue intensity, 0...255.
    public var blue: UInt8

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Red: RGB (230, 40, 40).
    public static let red = OverlayColor(red: 230, green: 40, blue: 40)
    /// Green: RGB (40, 200, 60).
    public static let green = OverlayColor(red: 40, green: 200, blue: 60)
    /// Blue: RGB (40, 110, 255).
    public static let blue = OverlayColor(red: 40, green: 110, blue: 255)
    /// Yellow: RGB (255, 215, 0).
    public static let yellow = OverlayColor(red: 255, green: 215, blue: 0)
    /// Purple: RGB (160, 60, 220).
    public static let purple = OverlayColor(red: 160, green: 60, blue: 220)
    /// Orange: RGB (255, 140, 0).
    public static let orange = OverlayColor(red: 255, green: 140, blue: 0)
    /// Cyan: RGB (0, 200, 220).
    public static let cyan = OverlayColor(red: 0, green: 200, blue: 220)
    /// White: RGB (255, 255, 255).
    public static let white = OverlayColor(red: 255, green: 255, blue: 255)
    /// Black: RGB (0, 0, 0).
    public static let black = OverlayColor(red: 0, green: 0, blue: 0)
}

/// One thing to draw over an image, in normalised lower-left coordinates (as observations are).
public struct OverlayItem: Sendable, Hashable, Codable {
    /// The geometry.
    public enum Shape: Sendable, Hashable, Codable {
        /// A polygon through the points, closed or open.
        case polygon([NormalizedPoint], closed: Bool)
        /// Dots at the points.
        case points([NormalizedPoint])
        /// A one-channel map (values 0...1, e.g. a saliency heat map) stretched over `region`, coloured
        /// blue → red (OpenCV's JET) and mixed in with weight `opacity` × value per pixel. Drawn before
        /// (under) every line, box and label of the same drawing; `color`, `label` and `lineWidth` are unused.
        case heatMap(PixelBufferObservation, over: NormalizedRect, opacity: Double)
    }

    /// What to draw, in normalised coordinates (lower-left origin).
    public var shape: Shape
    /// The line and label colour (unused for heat maps).
    public var color: OverlayColor
    /// Text drawn at the shape's top-left, if any.
    public var label: String?
    /// Line width in pixels at 1000 px image width (scaled with the image).
    public var lineWidth: Double

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(shape: Shape, color: OverlayColor, label: String? = nil, lineWidth: Double = 3) {
        self.shape = shape
        self.color = color
        self.label = label
        self.lineWidth = lineWidth
    }

    /// A rectangle outline.
    public static func box(_ rect: NormalizedRect, color: OverlayColor, label: String? = nil) -> OverlayItem {
        OverlayItem(
            shape: .polygon(
                [
                    NormalizedPoint(x: rect.minX, y: rect.maxY), NormalizedPoint(x: rect.maxX, y: rect.maxY),
                    NormalizedPoint(x: rect.maxX, y: rect.minY), NormalizedPoint(x: rect.minX, y: rect.minY),
                ],
                closed: true),
            color: color, label: label)
    }

    /// A heat map (see `Shape.heatMap`) over `region`, mixed in at up to `opacity`.
    public static func heatMap(
        _ map: PixelBufferObservation, over region: NormalizedRect = .fullImage,
        opacity: Double = 0.5
    ) -> OverlayItem {
        OverlayItem(shape: .heatMap(map, over: region, opacity: opacity), color: .white)
    }

    /// This item moved from region-of-interest coordinates to full-image coordinates.
    public func toFullImage(fromRegionOfInterest roi: NormalizedRect) -> OverlayItem {
        guard roi != .fullImage else { return self }
        var copy = self
        switch shape {
        case .polygon(let points, let closed):
            copy.shape = .polygon(points.map { $0.toFullImage(fromRegionOfInterest: roi) }, closed: closed)
        case .points(let points):
            copy.shape = .points(points.map { $0.toFullImage(fromRegionOfInterest: roi) })
        case .heatMap(let map, let region, let opacity):
            copy.shape = .heatMap(map, over: region.toFullImage(fromRegionOfInterest: roi), opacity: opacity)
        }
        return copy
    }
}
