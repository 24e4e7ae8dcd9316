internal import CNative
import Foundation

/// One outline found by `DetectContoursRequest`, as Vision's `Contour`: its points (normalised, lower-left
/// origin, relative to the request's region of interest) and the contours nested directly inside it.
public struct Contour: Sendable, Hashable, Codable {
    /// Where the contour sits in the tree: `[i]` for the i-th top-level contour, `[i, j]` for its j-th child, …
    public var indexPath: IndexPath
    /// The outline's points in order, closed (the last point joins the first); x and y in 0...1, y up.
    public var normalizedPoints: [SIMD2<Float>]
    /// The contours directly inside this one (holes of a shape, shapes inside a hole).
    public var childContours: [Contour]
    /// Width / height of the analysed image: multiply normalised x by it to compare distances with y.
    public var aspectRatio: Float

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        indexPath: IndexPath, normalizedPoints: [SIMD2<Float>], childContours: [Contour] = [], aspectRatio: Float
    ) {
        self.indexPath = indexPath
        self.normalizedPoints = normalizedPoints
        self.childContours = childContours
        self.aspectRatio = aspectRatio
    }

    /// The number of points.
    public var pointCount: Int { normalizedPoints.count }

    /// The number of direct children.
    public var childContourCount: Int { childContours.count }

    /// The smallest axis-aligned rectangle holding every point (normalised, lower-left origin).
    public var boundingBox: NormalizedRect {
        guard let first = normalizedPoints.first else { return NormalizedRect(x: 0, y: 0, width: 0, height: 0) }
        var lo = first
        var hi = first
        for p in normalizedPoints {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return NormalizedRect(x: Double(lo.x), y: Double(lo.y), width: Double(hi.x - lo.x), height: Double(hi.y - lo.y))
    }

    /// The points as `NormalizedPoint`s.
    public var points: [NormalizedPoint] { normalizedPoints.map { NormalizedPoint(x: Double($0.x), y: Double($0.y)) } }

    /// The child at `indexPath` relative to this contour (`[j]`: the j-th child, `[j, k]`: its k-th child), or nil.
    public func contour(at indexPath: IndexPath) -> Contour? {
        guard let first = indexPath.first else { return self }
        guard childContours.indices.contains(first) else { return nil }
        return childContours[first].contour(at: indexPath.dropFirst())
    }

    /// A simpler closed polygon within `epsilon` (normalised units) of the outline (Douglas–Peucker, OpenCV
    /// `approxPolyDP`), with the same index path and no children. Throws `invalidArgument` for a negative
    /// or non-finite epsilon.
    public func polygonApproximation(epsilon: Float) throws(VisionError) -> Contour {
        guard epsilon.isFinite, epsilon >= 0 else {
            throw VisionError(.invalidArgument, "epsilon must be a finite number >= 0, not \(epsilon)")
        }
        guard normalizedPoints.count > 2 else {
            return Contour(indexPath: indexPath, normalizedPoints: normalizedPoints, aspectRatio: aspectRatio)
        }
        var out = [SIMD2<Float>](repeating: .zero, count: normalizedPoints.count)
        var count: Int32 = 0
        let status = normalizedPoints.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                src.withMemoryRebound(to: Float.self) { s in
                    dst.withMemoryRebound(to: Float.self) { d in
                        ov_approx_polygon(
                            s.baseAddress, Int32(normalizedPoints.count), Double(epsilon), d.baseAddress, &count)
                    }
                }
            }
        }
        try NativeError.check(status, "polygon approximation")
        return Contour(indexPath: indexPath, normalizedPoints: Array(out.prefix(Int(count))), aspectRatio: aspectRatio)
    }
}
