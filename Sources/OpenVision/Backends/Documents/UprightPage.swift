import Foundation

/// A page turned so its text reads upright and level: the analysed image rotated by the angle its text lines run at
/// (a quarter turn found by the text recogniser's orientation vote, plus the few degrees of a skewed scan), and the
/// maps between the two images' pixels. The layout and table models see the upright image; every result is mapped
/// back, so a box on the upright page is a turned quadrilateral on the image as given.
struct UprightPage {
    /// The upright image (the analysed image itself when it is level).
    let image: VisionImage
    /// Given image pixel → upright pixel (top-left origins, pixel centres at integer + 0.5 as OpenCV maps them).
    let toUpright: Matrix3x3
    /// Upright pixel → given image pixel.
    let toGiven: Matrix3x3
    let givenWidth: Int, givenHeight: Int
    /// Degrees the text runs clockwise from level in the given image (0 for an upright page).
    let angle: Double

    /// Turns that small are not worth a warp (a line 2000 px long moves 0.35 px at its end).
    static let negligibleDegrees = 0.01

    /// `image`, turned by the angle its `lines` run at: their quarter turn (`textOrientation`), plus the median
    /// deviation of their reading direction from it, each line weighted by its length. No lines, or a level page:
    /// the image as it is.
    init(image: VisionImage, lines: [RecognizedTextObservation]) throws(VisionError) {
        givenWidth = image.width
        givenHeight = image.height
        let w = Double(image.width)
        let h = Double(image.height)
        let quarter = Double(lines.first?.textOrientation.clockwiseDegrees ?? 0)
        var deviations: [(Double, Double)] = []
        for line in lines {
            let a = line.topLeft
            let b = line.topRight
            let dx = (b.x - a.x) * w
            let dy = -(b.y - a.y) * h  // pixels, y down
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1 else { continue }
            var d = atan2(dy, dx) * 180 / .pi - quarter
            d = (d + 540).truncatingRemainder(dividingBy: 360) - 180
            if abs(d) < 30 { deviations.append((d, length)) }
        }
        var deviation = 0.0
        if !deviations.isEmpty {
            deviations.sort { $0.0 < $1.0 }
            let half = deviations.reduce(0) { $0 + $1.1 } / 2
            var sum = 0.0
            for (d, weight) in deviations {
                sum += weight
                if sum >= half {
                    deviation = d
                    break
                }
            }
        }
        angle = quarter + deviation
        guard abs(angle) > Self.negligibleDegrees else {
            self.image = image
            toUpright = .identity
            toGiven = .identity
            return
        }
        // Rotate by −angle about the centre, onto a canvas holding the whole turned image.
        let r = -angle * .pi / 180
        var c = cos(r)
        var s = sin(r)
        // Exact quarter turns: whole pixels map onto whole pixels.
        if abs(deviation) <= Self.negligibleDegrees {
            c = c.rounded()
            s = s.rounded()
        }
        let outW = max(1, Int((abs(w * c) + abs(h * s)).rounded()))
        let outH = max(1, Int((abs(w * s) + abs(h * c)).rounded()))
        let cx = w / 2
        let cy = h / 2
        let ox = Double(outW) / 2
        let oy = Double(outH) / 2
        // Pixel centres: OpenCV's warp samples output pixel (i, j) at its integer coordinates, so the map shifts by half
        // a pixel on both sides.
        let rotation = Matrix3x3(rowMajor: [
            c, -s, ox - 0.5 - c * (cx - 0.5) + s * (cy - 0.5),
            s, c, oy - 0.5 - s * (cx - 0.5) - c * (cy - 0.5),
            0, 0, 1,
        ])
        toUpright = rotation
        guard let inverse = rotation.inverse else {
            throw VisionError(.internalError, "the page rotation by \(angle)° has no inverse")
        }
        toGiven = inverse
        self.image = try image.warpedPerspective(by: rotation, width: outW, height: outH, origin: .upperLeft)
    }

    /// A given-image point (pixels, top-left origin, continuous: 0…width) on the upright page.
    func upright(_ x: Double, _ y: Double) -> (Double, Double) { Self.apply(toUpright, x, y) }

    /// An upright point (pixels, continuous) on the given image.
    func given(_ x: Double, _ y: Double) -> (Double, Double) { Self.apply(toGiven, x, y) }

    /// The box around a recognised line's corners on the upright page.
    func uprightBox(_ line: RecognizedTextObservation) -> PageBox {
        PageBox(points: line.corners.map { upright($0.x * Double(givenWidth), (1 - $0.y) * Double(givenHeight)) })
    }

    /// The box around a normalised rectangle of the given image (a word, a character) on the upright page.
    func uprightBox(_ rect: NormalizedRect) -> PageBox {
        let W = Double(givenWidth)
        let H = Double(givenHeight)
        return PageBox(
            points: [
                (rect.minX * W, (1 - rect.maxY) * H), (rect.maxX * W, (1 - rect.maxY) * H),
                (rect.maxX * W, (1 - rect.minY) * H), (rect.minX * W, (1 - rect.minY) * H),
            ].map { upright($0.0, $0.1) })
    }

    /// An upright box as a region of the given image: its corners top-left, top-right, bottom-right, bottom-left as
    /// read, normalised (lower-left origin) and clipped to the image.
    func region(_ box: PageBox) -> NormalizedRegion {
        let W = Double(givenWidth)
        let H = Double(givenHeight)
        let corners = [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)].map { given($0.0, $0.1) }
        return NormalizedRegion(
            points: corners.map {
                NormalizedPoint(x: min(max($0.0 / W, 0), 1), y: min(max(1 - $0.1 / H, 0), 1))
            }, aspectRatio: Float(W / max(H, 1)))
    }

    /// `m` applied to continuous coordinates (the half-pixel shift of OpenCV's pixel centres undone on both sides).
    private static func apply(_ m: Matrix3x3, _ x: Double, _ y: Double) -> (Double, Double) {
        let u = x - 0.5
        let v = y - 0.5
        let d = m[2, 0] * u + m[2, 1] * v + m[2, 2]
        return ((m[0, 0] * u + m[0, 1] * v + m[0, 2]) / d + 0.5, (m[1, 0] * u + m[1, 1] * v + m[1, 2]) / d + 0.5)
    }
}
