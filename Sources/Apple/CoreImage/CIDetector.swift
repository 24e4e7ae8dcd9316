import CoreGraphics
import Foundation
import OpenVision

/// Core Image's detector type for rectangles (`CIDetector(ofType: CIDetectorTypeRectangle, …)`).
public let CIDetectorTypeRectangle = "CIDetectorTypeRectangle"
/// The detector option naming the accuracy wanted (`CIDetectorAccuracyLow` or `CIDetectorAccuracyHigh`).
public let CIDetectorAccuracy = "CIDetectorAccuracy"
/// Fast, less accurate detection (here the same detector as `CIDetectorAccuracyHigh`).
public let CIDetectorAccuracyLow = "CIDetectorAccuracyLow"
/// Slower, more accurate detection.
public let CIDetectorAccuracyHigh = "CIDetectorAccuracyHigh"
/// The detector option for the smallest feature to find, as a fraction of the image's shorter side (0...1).
public let CIDetectorMinFeatureSize = "CIDetectorMinFeatureSize"
/// The detector option for the most rectangles to return (1...256; default 1).
public let CIDetectorMaxFeatureCount = "CIDetectorMaxFeatureCount"
/// The detector option for the aspect ratio (width / height) of the rectangles sought: a hint, not a filter.
public let CIDetectorAspectRatio = "CIDetectorAspectRatio"

/// Core Image's feature detector. Here it finds rectangles (`CIDetectorTypeRectangle`): OpenVision's
/// `DetectRectanglesRequest` on the image rendered over its extent, the corners returned in the image's own
/// coordinates (lower-left origin, pixels) as `CIRectangleFeature`s. Faces, QR codes and text have Vision requests
/// of their own here; their `CIDetector` types are absent (`init(ofType:…)` is nil for them).
public final class CIDetector: NSObject, @unchecked Sendable {
    private let request: DetectRectanglesRequest

    /// A detector of `type` (only `CIDetectorTypeRectangle`; nil for any other), with `options`
    /// (`CIDetectorMinFeatureSize`, `CIDetectorMaxFeatureCount`; `CIDetectorAccuracy` and `CIDetectorAspectRatio`
    /// are accepted). `context` is not needed here: images are rendered by OpenVision.
    public init?(ofType type: String, context: CIContext?, options: [String: Any]? = nil) {
        guard type == CIDetectorTypeRectangle else { return nil }
        var request = DetectRectanglesRequest()
        request.maximumObservations = 1
        if let count = Self.number(options?[CIDetectorMaxFeatureCount]) {
            request.maximumObservations = max(1, min(256, Int(count)))
        }
        if let size = Self.number(options?[CIDetectorMinFeatureSize]) {
            request.minimumSize = Float(max(0, min(1, size)))
        }
        self.request = request
    }

    /// The rectangles in `image` (at most `CIDetectorMaxFeatureCount`, most confident first), corners in the image's
    /// coordinates. Empty when none is found or the image cannot be rendered (an unbounded or empty extent).
    public func features(in image: CIImage) -> [CIFeature] {
        features(in: image, options: nil)
    }

    /// `features(in:)`; the per-call options (orientation, eye blink, smile) concern faces and are ignored.
    public func features(in image: CIImage, options: [String: Any]? = nil) -> [CIFeature] {
        let extent = image.extent
        guard let rendered = try? image.recipe.renderedImage(),
            let found = try? request.perform(in: ImageAnalysisContext(image: rendered))
        else { return [] }
        func place(_ p: NormalizedPoint) -> CGPoint {
            CGPoint(x: extent.minX + p.x * extent.width, y: extent.minY + p.y * extent.height)
        }
        return found.map { o in
            CIRectangleFeature(
                topLeft: place(o.topLeft), topRight: place(o.topRight), bottomLeft: place(o.bottomLeft),
                bottomRight: place(o.bottomRight))
        }
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as CGFloat: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }
}

/// The feature type of a `CIRectangleFeature`.
public let CIFeatureTypeRectangle = "Rectangle"

/// A feature a `CIDetector` found: its type and where it is (image coordinates, lower-left origin).
public class CIFeature: NSObject, @unchecked Sendable {
    /// The feature's type (`CIFeatureTypeRectangle`).
    public let type: String
    /// The smallest rectangle holding the feature, in image coordinates.
    public let bounds: CGRect

    init(type: String, bounds: CGRect) {
        self.type = type
        self.bounds = bounds
    }
}

/// A rectangle a `CIDetector` found: its four corners as seen upright, in image coordinates (lower-left origin).
public final class CIRectangleFeature: CIFeature, @unchecked Sendable {
    /// The upper-left corner.
    public let topLeft: CGPoint
    /// The upper-right corner.
    public let topRight: CGPoint
    /// The lower-left corner.
    public let bottomLeft: CGPoint
    /// The lower-right corner.
    public let bottomRight: CGPoint

    init(topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        let xs = [topLeft.x, topRight.x, bottomLeft.x, bottomRight.x]
        let ys = [topLeft.y, topRight.y, bottomLeft.y, bottomRight.y]
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        super.init(
            type: CIFeatureTypeRectangle,
            bounds: CGRect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY))
    }
}
