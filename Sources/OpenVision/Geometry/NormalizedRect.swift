import Foundation

/// A rectangle in normalised image coordinates: 0...1 on both axes, origin at the lower-left
/// corner (`y` is the bottom edge), as Vision reports bounding boxes.
public struct NormalizedRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge: 0 at the image's left, 1 at its right.
    public var x: Double
    /// Bottom edge: 0 at the image's bottom, 1 at its top.
    public var y: Double
    /// Width as a fraction of the image's width.
    public var width: Double
    /// Height as a fraction of the image's height.
    public var height: Double

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image: (0, 0, 1, 1). The default region of interest.
    public static let fullImage = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// The normalised rect for a pixel rect in an image of `imageSize` whose origin is `origin`.
    public init(imageRect: CGRect, in imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) {
        let w = Double(imageSize.width)
        let h = Double(imageSize.height)
        let r = imageRect.standardized
        let nx = w > 0 ? Double(r.minX) / w : 0
        let nw = w > 0 ? Double(r.width) / w : 0
        let nh = h > 0 ? Double(r.height) / h : 0
        var ny = h > 0 ? Double(r.minY) / h : 0
        if origin == .upperLeft { ny = 1 - ny - nh }
        self.init(x: nx, y: ny, width: nw, height: nh)
    }

    /// The left edge (`x`).
    public var minX: Double { x }
    /// The bottom edge (`y`).
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The top edge.
    public var maxY: Double { y + height }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// Width × height, 0 when either is negative.
    public var area: Double { max(0, width) * max(0, height) }

    /// True when the rect has positive size and lies within the unit square (a valid region of interest).
    public var isWithinUnitSquare: Bool {
        let eps = 1e-9
        return width > 0 && height > 0 && x >= -eps && y >= -eps && maxX <= 1 + eps && maxY <= 1 + eps
            && x.isFinite && y.isFinite && width.isFinite && height.isFinite
    }

    /// The pixel rect of this rect in an image of `imageSize`, in the convention `origin`.
    public func toImageCoordinates(_ imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> CGRect {
        let w = Double(imageSize.width)
        let h = Double(imageSize.height)
        let py = origin == .lowerLeft ? y * h : (1 - maxY) * h
        return CGRect(x: x * w, y: py, width: width * w, height: height * h)
    }

    /// This rect, given relative to `regionOfInterest` (as request results are), expressed
    /// relative to the full image.
    public func toFullImage(fromRegionOfInterest roi: NormalizedRect) -> NormalizedRect {
        NormalizedRect(
            x: roi.x + x * roi.width, y: roi.y + y * roi.height,
            width: width * roi.width, height: height * roi.height)
    }

    /// The intersection with `other`, or nil when they do not overlap.
    public func intersection(_ other: NormalizedRect) -> NormalizedRect? {
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rect containing both.
    public func union(_ other: NormalizedRect) -> NormalizedRect {
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return NormalizedRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Intersection over union, 0...1.
    public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        OpenVision.intersectionOverUnion((minX, minY, maxX, maxY), (other.minX, other.minY, other.maxX, other.maxY))
    }

    /// The smallest rect containing all `points`.
    /// The corners in the reading order of text turned `degrees` clockwise (0, 90, 180, 270) inside this box:
    /// its top-left, top-right, bottom-right and bottom-left as the text sees them (for 90°, the box's
    /// top-right corner is the text's top-left).
    func readingCorners(turnedClockwise degrees: Int) -> [NormalizedPoint] {
        let tl = NormalizedPoint(x: minX, y: maxY)
        let tr = NormalizedPoint(x: maxX, y: maxY)
        let br = NormalizedPoint(x: maxX, y: minY)
        let bl = NormalizedPoint(x: minX, y: minY)
        switch ((degrees % 360 + 360) % 360) / 90 {
        case 1: return [tr, br, bl, tl]
        case 2: return [br, bl, tl, tr]
        case 3: return [bl, tl, tr, br]
        default: return [tl, tr, br, bl]
        }
    }

    /// The smallest rect containing `points`; the zero rect when `points` is empty.
    public init(boundingPoints points: [NormalizedPoint]) {
        guard let first = points.first else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        var x0 = first.x
        var y0 = first.y
        var x1 = first.x
        var y1 = first.y
        for p in points.dropFirst() {
            x0 = min(x0, p.x)
            y0 = min(y0, p.y)
            x1 = max(x1, p.x)
            y1 = max(y1, p.y)
        }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        "[x \(x.formatted4), y \(y.formatted4), w \(width.formatted4), h \(height.formatted4)]"
    }
}

/// The pixel rect (lower-left origin by default) of a normalised rect, as Vision's
/// `VNImageRectForNormalizedRect` computes it.
public func imageRect(
    forNormalizedRect rect: NormalizedRect, width: Int, height: Int,
    origin: CoordinateOrigin = .lowerLeft
) -> CGRect {
    rect.toImageCoordinates(CGSize(width: width, height: height), origin: origin)
}

/// The normalised rect of a pixel rect (lower-left origin by default), as Vision's
/// `VNNormalizedRectForImageRect` computes it.
public func normalizedRect(
    forImageRect rect: CGRect, width: Int, height: Int,
    origin: CoordinateOrigin = .lowerLeft
) -> NormalizedRect {
    NormalizedRect(imageRect: rect, in: CGSize(width: width, height: height), origin: origin)
}
