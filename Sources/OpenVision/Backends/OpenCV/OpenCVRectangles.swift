internal import CNative

/// `DetectRectanglesRequest`'s backend: OpenCV contour analysis in `ov_rectangles.cpp` (see its
/// "Algorithm / Decisions" header).
enum OpenCVRectangles {
    /// Quadrilaterals in `image`, most confident first, at most `maximumObservations` (0: all).
    /// `detectionSide`: the longer side (px) of the image candidates are found on (0: the backend's 640);
    /// corners are refined at up to 1024 px either way.
    static func detect(
        in image: VisionImage, minimumAspectRatio: Float, maximumAspectRatio: Float, quadratureTolerance: Float,
        minimumSize: Float, minimumConfidence: Float, maximumObservations: Int,
        detectionSide: Int = 0
    ) throws(VisionError) -> [RectangleObservation] {
        var params = ov_rectangle_params(
            minimum_aspect_ratio: minimumAspectRatio, maximum_aspect_ratio: maximumAspectRatio,
            quadrature_tolerance: quadratureTolerance, minimum_size: minimumSize,
            minimum_confidence: minimumConfidence, detection_side: Int32(detectionSide))
        var capacity = maximumObservations == 0 ? 64 : maximumObservations
        while true {
            var quads = [ov_quad](repeating: ov_quad(), count: capacity)
            var count: Int32 = 0
            try NativeError.check(
                ov_detect_rectangles(image.handle, &params, &quads, Int32(capacity), &count),
                "rectangle detection")
            if maximumObservations == 0 && Int(count) > capacity {
                capacity = Int(count)
                continue
            }
            let map = PixelToNormalized(image)
            return quads.prefix(min(Int(count), capacity)).map { q in
                let (xs, ys) = (q.x, q.y)
                return RectangleObservation(
                    topLeft: map.point(xs.0, ys.0), topRight: map.point(xs.1, ys.1),
                    bottomRight: map.point(xs.2, ys.2), bottomLeft: map.point(xs.3, ys.3),
                    confidence: q.confidence)
            }
        }
    }
}
