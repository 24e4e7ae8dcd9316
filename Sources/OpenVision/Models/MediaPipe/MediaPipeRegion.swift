import Foundation

/// A rotated region of an image in pixels (top-left origin, y down), as MediaPipe's `NormalizedRect`
/// times the image size: the crop a landmark model sees. `rotation` is MediaPipe's (radians; positive turns
/// the crop's axes clockwise as seen on screen).
struct MediaPipeRegion: Sendable, Hashable {
    var centerX: Double
    var centerY: Double
    var width: Double
    var height: Double
    var rotation: Double

    /// MediaPipe's `NormalizeRadians`: the angle in [-π, π).
    static func normalizedRadians(_ angle: Double) -> Double {
        angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }

    /// The whole `width` × `height` image, unrotated.
    static func fullImage(width: Int, height: Int) -> MediaPipeRegion {
        MediaPipeRegion(centerX: Double(width) / 2, centerY: Double(height) / 2, width: Double(width), height: Double(height), rotation: 0)
    }

    /// This region grown on one axis to the aspect ratio of a `tensorWidth` × `tensorHeight` input, as
    /// `ImageToTensorCalculator` with `keep_aspect_ratio: true` pads it (the letterbox).
    func keepingAspectRatio(tensorWidth: Int, tensorHeight: Int) -> MediaPipeRegion {
        let tensorAspect = Double(tensorHeight) / Double(tensorWidth), aspect = height / width
        var r = self
        if tensorAspect > aspect { r.height = width * tensorAspect } else { r.width = height / tensorAspect }
        return r
    }

    /// The body region from a pose detection's keypoints (pixels), as pose_detection_to_roi.pbtxt builds
    /// it: `AlignmentPointsRectsCalculator` (centre at keypoint 0, the hips' middle; a square of twice the
    /// distance to keypoint 1; rotated so that 0 → 1 points up, target angle 90°), then
    /// `RectTransformationCalculator` (scale 1.25, square on the long side).
    static func body(center: (x: Double, y: Double), scalePoint: (x: Double, y: Double), scale: Double = 1.25) -> MediaPipeRegion {
        let size = 2 * hypot(scalePoint.x - center.x, scalePoint.y - center.y) * scale
        let rotation = normalizedRadians(.pi / 2 - atan2(-(scalePoint.y - center.y), scalePoint.x - center.x))
        return MediaPipeRegion(centerX: center.x, centerY: center.y, width: size, height: size, rotation: rotation)
    }

    /// The transform (top-left pixel coordinates) taking this region onto an `outputWidth` × `outputHeight`
    /// image, corner to corner, as `ImageToTensorCalculator` warps it (`cv::boxPoints` → output corners).
    func cropTransform(outputWidth: Int, outputHeight: Int) -> Matrix3x3 {
        let c = cos(rotation), s = sin(rotation)
        let sx = Double(outputWidth) / width, sy = Double(outputHeight) / height
        return Matrix3x3(rowMajor: [
            c * sx, s * sx, -sx * (c * centerX + s * centerY) + Double(outputWidth) / 2,
            -s * sy, c * sy, -sy * (-s * centerX + c * centerY) + Double(outputHeight) / 2,
            0, 0, 1,
        ])
    }

    /// The image pixel for a point normalised to the crop (0...1, top-left origin), as
    /// `LandmarkProjectionCalculator` projects landmarks.
    func project(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - 0.5) * width, dy = (y - 0.5) * height
        let c = cos(rotation), s = sin(rotation)
        return (centerX + c * dx - s * dy, centerY + s * dx + c * dy)
    }
}

/// `RefineLandmarksFromHeatmapCalculator`: each landmark (normalised to the crop) moves to the
/// sigmoid-weighted mean position of the heat map in a `kernelSize` window around it, when the window's
/// largest confidence reaches `minimumConfidence`. `heatmap` is `rows × columns × channels` (HWC, one
/// channel per landmark, raw logits).
enum HeatmapRefinement {
    static func refine(_ points: inout [(x: Double, y: Double)], heatmap: [Float], rows: Int, columns: Int, channels: Int,
                       kernelSize: Int = 7, minimumConfidence: Float = 0.5) {
        guard channels == points.count, heatmap.count == rows * columns * channels else { return }
        let offset = (kernelSize - 1) / 2
        for i in points.indices {
            // As MediaPipe: truncation toward zero, and its bounds check (which tests the column twice).
            let x = points[i].x * Double(columns), y = points[i].y * Double(rows)
            guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { continue }
            let col = Int(x), row = Int(y)
            if col < 0 || col >= columns || row < 0 { continue }
            var sum: Float = 0, wc: Float = 0, wr: Float = 0, best: Float = 0
            for r in max(0, row - offset)..<max(max(0, row - offset), min(rows, row + offset + 1)) {
                for c in max(0, col - offset)..<min(columns, col + offset + 1) {
                    let v = 1 / (1 + exp(-heatmap[(r * columns + c) * channels + i]))
                    sum += v
                    best = max(best, v)
                    wc += Float(c) * v
                    wr += Float(r) * v
                }
            }
            if best >= minimumConfidence && sum > 0 {
                points[i] = (Double(wc / Float(columns) / sum), Double(wr / Float(rows) / sum))
            }
        }
    }
}
