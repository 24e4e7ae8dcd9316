internal import CNative

/// Finds quadrilaterals (documents, cards, screens, signs), as Vision's `DetectRectanglesRequest`,
/// using OpenCV contour analysis. Every default is Vision's.
public struct DetectRectanglesRequest: CompletionHandlingRequest {
    public typealias Result = [RectangleObservation]

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Smallest accepted aspect ratio (shorter side / longer side), 0...1. Default 0.5.
    public var minimumAspectRatio: Float = 0.5
    /// Largest accepted aspect ratio (shorter side / longer side), 0...1. Default 1.0.
    public var maximumAspectRatio: Float = 1.0
    /// How far, in degrees, each corner may deviate from 90°, 0...45. Default 30.
    public var quadratureTolerance: Float = 30
    /// Smallest accepted size: the shorter side as a fraction of the image's shorter side, 0...1. Default 0.2.
    public var minimumSize: Float = 0.2
    /// Observations less confident than this are dropped, 0...1. Default 0.
    public var minimumConfidence: Float = 0
    /// At most this many observations, most confident first; 0 means no limit. Default 1.
    public var maximumObservations: Int = 1
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard maximumObservations >= 0 else {
            throw VisionError(.invalidArgument, "maximumObservations must be 0 (no limit) or more, not \(maximumObservations)")
        }
        let image = try imageForRegionOfInterest(in: context)
        var params = ov_rectangle_params(minimum_aspect_ratio: minimumAspectRatio, maximum_aspect_ratio: maximumAspectRatio,
                                         quadrature_tolerance: quadratureTolerance, minimum_size: minimumSize,
                                         minimum_confidence: minimumConfidence)
        var capacity = maximumObservations == 0 ? 64 : maximumObservations
        while true {
            var quads = [ov_quad](repeating: ov_quad(), count: capacity)
            var count: Int32 = 0
            try NativeError.check(ov_detect_rectangles(image.handle, &params, &quads, Int32(capacity), &count),
                                  "rectangle detection")
            if maximumObservations == 0 && Int(count) > capacity {
                capacity = Int(count)
                continue
            }
            let map = PixelToNormalized(image)
            return quads.prefix(min(Int(count), capacity)).map { q in
                let (xs, ys) = (q.x, q.y)
                return RectangleObservation(topLeft: map.point(xs.0, ys.0), topRight: map.point(xs.1, ys.1),
                                            bottomRight: map.point(xs.2, ys.2), bottomLeft: map.point(xs.3, ys.3),
                                            confidence: q.confidence)
            }
        }
    }
}
