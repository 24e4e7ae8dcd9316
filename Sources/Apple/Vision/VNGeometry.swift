import CoreGraphics
import Foundation
import OpenVision

/// Vision's confidence score (0...1).
public typealias VNConfidence = Float
/// Vision's aspect ratio (width / height).
public typealias VNAspectRatio = Float
/// Vision's angle in degrees.
public typealias VNDegrees = Float

/// The whole image in normalised coordinates.
public let VNNormalizedIdentityRect = CGRect(x: 0, y: 0, width: 1, height: 1)

/// True when `rect` is exactly `VNNormalizedIdentityRect` (the whole image).
public func VNNormalizedRectIsIdentityRect(_ rect: CGRect) -> Bool { rect == VNNormalizedIdentityRect }

/// A normalised rectangle (lower-left origin) in image pixels (same origin), as Vision's.
public func VNImageRectForNormalizedRect(_ rect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    CGRect(
        x: rect.minX * CGFloat(imageWidth), y: rect.minY * CGFloat(imageHeight),
        width: rect.width * CGFloat(imageWidth), height: rect.height * CGFloat(imageHeight))
}

/// An image rectangle in normalised coordinates, as Vision's.
public func VNNormalizedRectForImageRect(_ rect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    CGRect(
        x: rect.minX / CGFloat(imageWidth), y: rect.minY / CGFloat(imageHeight),
        width: rect.width / CGFloat(imageWidth), height: rect.height / CGFloat(imageHeight))
}

/// A normalised point (lower-left origin) in image pixels (same origin), as Vision's.
public func VNImagePointForNormalizedPoint(_ point: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: point.x * CGFloat(imageWidth), y: point.y * CGFloat(imageHeight))
}

/// An image point in pixels (lower-left origin) in normalised coordinates, as Vision's.
public func VNNormalizedPointForImagePoint(_ point: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: point.x / CGFloat(imageWidth), y: point.y / CGFloat(imageHeight))
}

extension NormalizedRect {
    /// The rectangle as a `CGRect` in the same normalised, lower-left-origin coordinates (Vision's `cgRect`).
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
    /// The lower-left corner as a `CGPoint` (Vision's `origin`).
    public var origin: CGPoint { CGPoint(x: x, y: y) }
    /// The width and height as a `CGSize` (Vision's `size`).
    public var size: CGSize { CGSize(width: width, height: height) }
    init(_ r: CGRect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }

    /// The same rectangle with the vertical axis flipped (y' = 1 − y − height), as Vision's `verticallyFlipped()`:
    /// lower-left-origin coordinates become upper-left-origin ones (SwiftUI's, UIKit's) and back.
    public func verticallyFlipped() -> NormalizedRect {
        NormalizedRect(x: x, y: 1 - y - height, width: width, height: height)
    }
}

extension NormalizedPoint {
    /// The point as a `CGPoint` in the same normalised, lower-left-origin coordinates (Vision's `cgPoint`).
    public var cgPoint: CGPoint { CGPoint(x: x, y: y) }

    /// The same point with the vertical axis flipped (y' = 1 − y), as Vision's `verticallyFlipped()`.
    public func verticallyFlipped() -> NormalizedPoint { NormalizedPoint(x: x, y: 1 - y) }
}
