import Foundation
import OpenVision

/// The warped-page scenes of the document-segmentation tests, shared with `openvision-bench make-document-set`
/// so that the Python peer's figures quoted in the tests come from the very same pixels.
public enum DocumentScenes {
    /// Every scene's size in pixels.
    public static let size = CGSize(width: 1000, height: 750)

    /// The pages' corners (pixels, top-left origin, clockwise from top-left): perspective, upright, rotated ~17°.
    public static let pages: [[(Double, Double)]] = [
        [(230.0, 90.0), (760.0, 140.0), (820.0, 660.0), (170.0, 620.0)],
        [(300.0, 60.0), (700.0, 60.0), (700.0, 690.0), (300.0, 690.0)],
        [(180.0, 200.0), (640.0, 60.0), (830.0, 520.0), (330.0, 700.0)],
    ]

    /// A light page warped into `corners` (pixels, clockwise from top-left) with dark text lines, on a
    /// mid-gray background textured with blobs.
    public static func scene(_ corners: [(Double, Double)]) throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: Int(size.width), height: Int(size.height), gray: 110)
        var rng = SplitMix(seed: 11)
        for _ in 0..<250 {
            let x = rng.next() * size.width
            let y = rng.next() * size.height
            try canvas.dot(
                at: CGPoint(x: x, y: y), radius: 2 + 6 * rng.next(),
                color: Fixtures.grayColor(rng.next() < 0.5 ? 80 : 140))
        }
        try Fixtures.fill(corners, on: &canvas, gray: 240)
        // Text lines: bilinear positions inside the page.
        func at(_ u: Double, _ v: Double) -> (Double, Double) {
            let top = (
                corners[0].0 + (corners[1].0 - corners[0].0) * u, corners[0].1 + (corners[1].1 - corners[0].1) * u
            )
            let bottom = (
                corners[3].0 + (corners[2].0 - corners[3].0) * u, corners[3].1 + (corners[2].1 - corners[3].1) * u
            )
            return (top.0 + (bottom.0 - top.0) * v, top.1 + (bottom.1 - top.1) * v)
        }
        for line in 0..<8 {
            let v = 0.15 + Double(line) * 0.09
            try Fixtures.fill(
                [at(0.12, v), at(0.85, v), at(0.85, v + 0.025), at(0.12, v + 0.025)], on: &canvas, gray: 40)
        }
        return canvas.makeImage()
    }
}
