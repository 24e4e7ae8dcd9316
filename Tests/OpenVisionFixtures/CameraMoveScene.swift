import Foundation
import OpenVision

/// A synthetic camera moving over a shared photo with the motion known: frame k is the photo warped by
/// `transform(k)` (photo pixels → frame pixels, top-left origin) into 640×480, so a spot P of the photo is at
/// `transform(k)·P` in frame k. The camera pans right by 300 photo pixels over frames 0–110, holds, pans back
/// over frames 140–250; meanwhile it zooms (1.5–1.7×) and rolls (±4°).
public struct CameraMoveScene: Sendable {
    public static let width = 640, height = 480, frameCount = 300
    public let photo: VisionImage
    /// The photo point at the frame's centre on frame 0.
    public let start: CGPoint

    public init(photo name: String = "dog.jpg") throws {
        photo = try VisionImage(contentsOf: Fixtures.sharedImage(name))
        start = CGPoint(x: 240, y: Double(photo.height) / 2)
    }

    /// 0 → 1 over frames 0–110, 1 until 140, back to 0 by 250 (smoothstep ramps).
    public static func pan(_ k: Int) -> Double {
        func smooth(_ t: Double) -> Double {
            let c = min(max(t, 0), 1)
            return c * c * (3 - 2 * c)
        }
        if k <= 110 { return smooth(Double(k) / 110) }
        if k <= 140 { return 1 }
        return 1 - smooth(Double(k - 140) / 110)
    }

    public func transform(_ k: Int) -> Matrix3x3 {
        let s = 1.6 + 0.1 * sin(2 * Double.pi * Double(k) / 300)
        let angle = 4 * Double.pi / 180 * sin(2 * Double.pi * Double(k) / 150)
        let q = CGPoint(x: start.x + 300 * Self.pan(k), y: start.y)
        let (c, si) = (s * cos(angle), s * sin(angle))
        // p_frame = s·R(angle)·(p − q) + centre
        let cx = Double(Self.width) / 2
        let cy = Double(Self.height) / 2
        return Matrix3x3(rowMajor: [
            c, -si, cx - c * q.x + si * q.y,
            si, c, cy - si * q.x - c * q.y,
            0, 0, 1,
        ])
    }

    public func frame(_ k: Int) throws -> VisionImage {
        try photo.warpedPerspective(by: transform(k), width: Self.width, height: Self.height, origin: .upperLeft)
    }

    /// Where the photo point `p` is on frame k, normalised with a lower-left origin.
    public func truth(_ p: CGPoint, frame k: Int) -> CGPoint {
        let m = transform(k)
        let x = m[0, 0] * p.x + m[0, 1] * p.y + m[0, 2]
        let y = m[1, 0] * p.x + m[1, 1] * p.y + m[1, 2]
        return CGPoint(x: x / Double(Self.width), y: 1 - y / Double(Self.height))
    }

    /// The photo point seen at the normalised point `n` of frame 0.
    public func photoPoint(atFrame0 n: CGPoint) -> CGPoint {
        let px = n.x * Double(Self.width)
        let py = (1 - n.y) * Double(Self.height)
        let inverse = transform(0).inverse!
        return CGPoint(
            x: inverse[0, 0] * px + inverse[0, 1] * py + inverse[0, 2],
            y: inverse[1, 0] * px + inverse[1, 1] * py + inverse[1, 2])
    }
}
