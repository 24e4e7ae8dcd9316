import Foundation
@_exported import OpenVision
@_exported import CoreML

// Core Graphics / Core Video names that Vision code uses, on Linux (Foundation already has CGRect,
// CGPoint, CGSize and CGFloat). The images are OpenVision's: no second image type.

/// EXIF orientation (same raw values as Apple's `CGImagePropertyOrientation`).
public typealias CGImagePropertyOrientation = ImageOrientation
public typealias VNConfidence = Float
public typealias VNAspectRatio = Float
public typealias VNDegrees = Float

public func CVPixelBufferGetWidth(_ buffer: CVPixelBuffer) -> Int { buffer.width }
public func CVPixelBufferGetHeight(_ buffer: CVPixelBuffer) -> Int { buffer.height }

/// Core Graphics' affine transform (`[a b 0; c d 0; tx ty 1]`, points as row vectors).
public struct CGAffineTransform: Hashable, Sendable {
    public var a, b, c, d, tx, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    public init(rotationAngle angle: CGFloat) {
        self.init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
    }
    /// `self` followed by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d, c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
                          tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: sx, y: sy).concatenating(self) }
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: x, y: y).concatenating(self) }
}

extension CGPoint {
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGRect {
    /// The bounding box of the transformed rectangle (Core Graphics' `applying`).
    public func applying(_ t: CGAffineTransform) -> CGRect {
        let corners = [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY)]
            .map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

/// The whole image in normalised coordinates.
public let VNNormalizedIdentityRect = CGRect(x: 0, y: 0, width: 1, height: 1)

public func VNNormalizedRectIsIdentityRect(_ rect: CGRect) -> Bool { rect == VNNormalizedIdentityRect }

/// A normalised rectangle (lower-left origin) in image pixels (same origin), as Vision's.
public func VNImageRectForNormalizedRect(_ rect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    CGRect(x: rect.minX * CGFloat(imageWidth), y: rect.minY * CGFloat(imageHeight),
           width: rect.width * CGFloat(imageWidth), height: rect.height * CGFloat(imageHeight))
}

/// An image rectangle in normalised coordinates, as Vision's.
public func VNNormalizedRectForImageRect(_ rect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    CGRect(x: rect.minX / CGFloat(imageWidth), y: rect.minY / CGFloat(imageHeight),
           width: rect.width / CGFloat(imageWidth), height: rect.height / CGFloat(imageHeight))
}

public func VNImagePointForNormalizedPoint(_ point: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: point.x * CGFloat(imageWidth), y: point.y * CGFloat(imageHeight))
}

public func VNNormalizedPointForImagePoint(_ point: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    CGPoint(x: point.x / CGFloat(imageWidth), y: point.y / CGFloat(imageHeight))
}

extension NormalizedRect {
    var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
    init(_ r: CGRect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }
}

extension NormalizedPoint {
    var cgPoint: CGPoint { CGPoint(x: x, y: y) }
}
