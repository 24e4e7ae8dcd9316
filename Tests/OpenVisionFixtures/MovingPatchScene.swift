import Foundation
import OpenVision

/// A textured patch cut from a shared photo (giraffe.jpg) moving over another (horses.jpg, resized to
/// 640×480) along a known path (at most 4.5 px per frame over 120 frames), optionally turning, growing, and covered by a flat gray card for some frames.
public struct MovingPatchScene: Sendable {
    public static let width = 640, height = 480
    public let background: VisionImage
    public let patch: VisionImage
    public var frameCount = 120
    /// Frames on which a gray card covers the patch (and 12 px around it).
    public var occluded: Range<Int> = 0..<0
    /// Degrees (counter-clockwise) and scale reached on the last frame, linearly from 0° and 1×.
    public var finalDegrees = 0.0, finalScale = 1.0

    public init() throws {
        background = try VisionImage(contentsOf: Fixtures.sharedImage("horses.jpg")).resized(
            width: Self.width, height: Self.height)
        patch = try VisionImage(contentsOf: Fixtures.sharedImage("giraffe.jpg")).cropped(
            to: NormalizedRect(x: 0.25, y: 0.4, width: 0.28, height: 0.22))
    }

    public func t(_ k: Int) -> Double { Double(k) / Double(max(frameCount - 1, 1)) }
    public func degrees(_ k: Int) -> Double { finalDegrees * t(k) }
    public func scale(_ k: Int) -> Double { 1 + (finalScale - 1) * t(k) }

    /// The patch's centre on frame k (pixels, top-left origin): left to right with a vertical swing.
    public func centre(_ k: Int) -> CGPoint {
        CGPoint(x: 130 + 380 * t(k), y: 220 + 60 * sin(2 * Double.pi * t(k)))
    }

    public func frame(_ k: Int) throws -> VisionImage {
        var canvas = try ImageCanvas(copying: background)
        let s = scale(k)
        let c = centre(k)
        try Fixtures.paste(
            patch, on: &canvas, x: c.x - Double(patch.width) * s / 2, y: c.y - Double(patch.height) * s / 2,
            degrees: degrees(k), scale: s)
        if occluded.contains(k) {
            let b = pixelBox(k)
            try Fixtures.fill(
                [
                    (b.minX - 12, b.minY - 12), (b.maxX + 12, b.minY - 12), (b.maxX + 12, b.maxY + 12),
                    (b.minX - 12, b.maxY + 12),
                ],
                on: &canvas, gray: 128)
        }
        return canvas.makeImage()
    }

    /// The patch's corners on frame k (pixels, top-left origin): top-left, top-right, bottom-right, bottom-left.
    public func pixelCorners(_ k: Int) -> [CGPoint] {
        let s = scale(k)
        let a = degrees(k) * Double.pi / 180
        let c = centre(k)
        let (hw, hh) = (Double(patch.width) / 2, Double(patch.height) / 2)
        // cv::getRotationMatrix2D: (dx, dy) → s·(cos·dx + sin·dy, −sin·dx + cos·dy) about the centre.
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { d in
            CGPoint(x: c.x + s * (cos(a) * d.0 + sin(a) * d.1), y: c.y + s * (-sin(a) * d.0 + cos(a) * d.1))
        }
    }

    public func pixelBox(_ k: Int) -> CGRect {
        let p = pixelCorners(k)
        let xs = p.map(\.x)
        let ys = p.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The patch's bounding box on frame k, normalised with a lower-left origin.
    public func truth(_ k: Int) -> NormalizedRect {
        NormalizedRect(imageRect: pixelBox(k), in: CGSize(width: Self.width, height: Self.height), origin: .upperLeft)
    }

    /// The patch's corners on frame k, normalised with a lower-left origin.
    public func truthCorners(_ k: Int) -> [NormalizedPoint] {
        pixelCorners(k).map {
            NormalizedPoint(imagePoint: $0, in: CGSize(width: Self.width, height: Self.height), origin: .upperLeft)
        }
    }
}
