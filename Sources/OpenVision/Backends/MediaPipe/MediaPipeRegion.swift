import Foundation

/// A rotated region of an image in pixels (top-left origin, y down), as MediaPipe's `NormalizedRect`
/// times the image size: the crop a detector or landmark model sees. `rotation` is MediaPipe's (radians; positive
/// turns the crop's axes clockwise as seen on screen). The one region type of the MediaPipe pipelines (hands,
/// BlazeFace, body pose, selfie segmentation): `ImageToTensorCalculator`'s crop (`cropTransform`,
/// `keepingAspectRatio`), `LandmarkProjectionCalculator` (`project`), `DetectionsToRectsCalculator`
/// (`init(detection:…)`, `body`) and `RectTransformationCalculator` (`transformed`).
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
        MediaPipeRegion(
            centerX: Double(width) / 2, centerY: Double(height) / 2, width: Double(width), height: Double(height),
            rotation: 0)
    }

    /// This region grown on one axis to the aspect ratio of a `tensorWidth` × `tensorHeight` input, as
    /// `ImageToTensorCalculator` with `keep_aspect_ratio: true` pads it (the letterbox).
    func keepingAspectRatio(tensorWidth: Int, tensorHeight: Int) -> MediaPipeRegion {
        let tensorAspect = Double(tensorHeight) / Double(tensorWidth)
        let aspect = height / width
        var r = self
        if tensorAspect > aspect { r.height = width * tensorAspect } else { r.width = height / tensorAspect }
        return r
    }

    /// The body region from a pose detection's keypoints (pixels), as pose_detection_to_roi.pbtxt builds
    /// it: `AlignmentPointsRectsCalculator` (centre at keypoint 0, the hips' middle; a square of twice the
    /// distance to keypoint 1; rotated so that 0 → 1 points up, target angle 90°), then
    /// `RectTransformationCalculator` (scale 1.25, square on the long side).
    static func body(center: (x: Double, y: Double), scalePoint: (x: Double, y: Double), scale: Double = 1.25)
        -> MediaPipeRegion
    {
        let size = 2 * hypot(scalePoint.x - center.x, scalePoint.y - center.y) * scale
        let rotation = normalizedRadians(.pi / 2 - atan2(-(scalePoint.y - center.y), scalePoint.x - center.x))
        return MediaPipeRegion(centerX: center.x, centerY: center.y, width: size, height: size, rotation: rotation)
    }

    /// `RectTransformationCalculator`: shifted by (`shiftX`, `shiftY`) of its own size along its rotated axes,
    /// squared on its longer side (`squareLong`), then scaled.
    func transformed(scaleX: Double, scaleY: Double, shiftX: Double = 0, shiftY: Double = 0, squareLong: Bool)
        -> MediaPipeRegion
    {
        var r = self
        let c = cos(rotation)
        let s = sin(rotation)
        r.centerX += width * shiftX * c - height * shiftY * s
        r.centerY += width * shiftX * s + height * shiftY * c
        let long = max(width, height)
        r.width = (squareLong ? long : width) * scaleX
        r.height = (squareLong ? long : height) * scaleY
        return r
    }

    /// Intersection over union of the unrotated boxes, as MediaPipe's `AssociationNormRectCalculator` compares them.
    func iou(_ other: MediaPipeRegion) -> Double {
        intersectionOverUnion(
            (centerX - width / 2, centerY - height / 2, centerX + width / 2, centerY + height / 2),
            (
                other.centerX - other.width / 2, other.centerY - other.height / 2,
                other.centerX + other.width / 2, other.centerY + other.height / 2
            ))
    }

    /// The transform (top-left pixel coordinates) taking this region onto an `outputWidth` × `outputHeight`
    /// image, corner to corner, as `ImageToTensorCalculator` warps it (`cv::boxPoints` → output corners).
    func cropTransform(outputWidth: Int, outputHeight: Int) -> Matrix3x3 {
        let c = cos(rotation)
        let s = sin(rotation)
        let sx = Double(outputWidth) / width
        let sy = Double(outputHeight) / height
        return Matrix3x3(rowMajor: [
            c * sx, s * sx, -sx * (c * centerX + s * centerY) + Double(outputWidth) / 2,
            -s * sy, c * sy, -sy * (-s * centerX + c * centerY) + Double(outputHeight) / 2,
            0, 0, 1,
        ])
    }

    /// The image pixel for a point normalised to the crop (0...1, top-left origin), as
    /// `LandmarkProjectionCalculator` projects landmarks.
    func project(x: Double, y: Double) -> (x: Double, y: Double) {
        let dx = (x - 0.5) * width
        let dy = (y - 0.5) * height
        let c = cos(rotation)
        let s = sin(rotation)
        return (centerX + c * dx - s * dy, centerY + s * dx + c * dy)
    }
}

extension MediaPipeRegion {
    /// `DetectionsToRectsCalculator`: the box of `detection` (image pixels), rotated so that the vector from keypoint
    /// `start` to keypoint `end` points at `targetAngle` (radians, counter-clockwise from +x as seen).
    init(detection d: MediaPipeDetection, start: Int, end: Int, targetAngle: Double) {
        let (x0, y0) = d.keypoints[start]
        let (x1, y1) = d.keypoints[end]
        self.init(
            centerX: (d.xMin + d.xMax) / 2, centerY: (d.yMin + d.yMax) / 2, width: d.xMax - d.xMin,
            height: d.yMax - d.yMin,
            rotation: Self.normalizedRadians(targetAngle - atan2(-(y1 - y0), x1 - x0)))
    }
}
