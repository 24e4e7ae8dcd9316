/// `DetectDocumentSegmentationRequest`'s backend: the rectangles backend (`ov_rectangles.cpp`) with
/// document-friendly limits, keeping the dominant quadrilateral.
///
/// Decisions: candidates are convex quadrilaterals with an aspect ratio of 0.25...1, corners within 45°
/// of square (perspective) and a shorter side of at least 20 % of the image's; among those at least
/// half as confident as the best, the largest wins (a page is the biggest quadrilateral in view, its
/// printed boxes and tables are smaller). A page cut by or flush with the image border is not found
/// (the rectangles backend never reports the frame).
enum OpenCVDocumentSegmentation {
    /// Candidates are found at this longer side (px): a page's shorter side is at least 20 % of the
    /// image's, so >= ~48 px here, plenty for its outline; corners are then refined at up to 1024 px.
    static let detectionSide = 320

    static func detect(in image: VisionImage) throws(VisionError) -> DetectedDocumentObservation? {
        let quads = try OpenCVRectangles.detect(
            in: image, minimumAspectRatio: 0.25, maximumAspectRatio: 1, quadratureTolerance: 45,
            minimumSize: 0.2, minimumConfidence: 0, maximumObservations: 0,
            detectionSide: detectionSide)
        guard let best = quads.map(\.confidence).max() else { return nil }
        func area(_ q: RectangleObservation) -> Double {
            let p = q.corners
            var s = 0.0
            for i in 0..<4 { s += p[i].x * p[(i + 1) % 4].y - p[(i + 1) % 4].x * p[i].y }
            return abs(s) / 2
        }
        guard let page = quads.filter({ $0.confidence >= best / 2 }).max(by: { area($0) < area($1) }) else {
            return nil
        }
        return DetectedDocumentObservation(
            topLeft: page.topLeft, topRight: page.topRight, bottomRight: page.bottomRight,
            bottomLeft: page.bottomLeft, confidence: page.confidence)
    }
}
