import Foundation

/// MediaPipe's `NormalizedRect`: a region of the image, centre and size normalised to the image
/// (top-left origin, y down), rotated by `rotation` radians about its centre (clockwise as seen, as
/// MediaPipe's rotations in y-down coordinates are).
struct RotatedRegion: Sendable, Hashable {
    var centerX: Double
    var centerY: Double
    var width: Double
    var height: Double
    var rotation: Double = 0

    /// The whole image.
    static let fullImage = RotatedRegion(centerX: 0.5, centerY: 0.5, width: 1, height: 1)

    /// `DetectionsToRectsCalculator`: the detection's box, rotated so that the vector from keypoint
    /// `start` to keypoint `end` points at `targetAngle` (radians, counter-clockwise from +x as seen).
    init(detection d: SSDDetection, imageWidth: Int, imageHeight: Int, start: Int, end: Int, targetAngle: Double) {
        centerX = d.xmin + d.width / 2
        centerY = d.ymin + d.height / 2
        width = d.width
        height = d.height
        let (w, h) = (Double(imageWidth), Double(imageHeight))
        let x0 = d.keypoints[start].x * w, y0 = d.keypoints[start].y * h
        let x1 = d.keypoints[end].x * w, y1 = d.keypoints[end].y * h
        rotation = Self.normalizedRadians(targetAngle - atan2(-(y1 - y0), x1 - x0))
    }

    init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double = 0) {
        self.centerX = centerX
        self.centerY = centerY
        self.width = width
        self.height = height
        self.rotation = rotation
    }

    /// An angle in [-π, π), as MediaPipe's `NormalizeRadians`.
    static func normalizedRadians(_ angle: Double) -> Double {
        angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }

    /// `RectTransformationCalculator`: shifted by (`shiftX`, `shiftY`) of its own size along its rotated
    /// axes, squared on its longer side in pixels (`squareLong`), then scaled.
    func transformed(imageWidth: Int, imageHeight: Int, scaleX: Double, scaleY: Double, shiftX: Double = 0, shiftY: Double = 0,
                     squareLong: Bool) -> RotatedRegion {
        let (iw, ih) = (Double(imageWidth), Double(imageHeight))
        var r = self
        if rotation == 0 {
            r.centerX += width * shiftX
            r.centerY += height * shiftY
        } else {
            let xShift = (iw * width * shiftX * cos(rotation) - ih * height * shiftY * sin(rotation)) / iw
            let yShift = (iw * width * shiftX * sin(rotation) + ih * height * shiftY * cos(rotation)) / ih
            r.centerX += xShift
            r.centerY += yShift
        }
        var w = width, h = height
        if squareLong {
            let long = max(width * iw, height * ih)
            w = long / iw
            h = long / ih
        }
        r.width = w * scaleX
        r.height = h * scaleY
        return r
    }

    /// Intersection over union of the unrotated boxes, as MediaPipe's `AssociationNormRectCalculator` compares them.
    func iou(_ other: RotatedRegion) -> Double {
        let ix = min(centerX + width / 2, other.centerX + other.width / 2) - max(centerX - width / 2, other.centerX - other.width / 2)
        let iy = min(centerY + height / 2, other.centerY + other.height / 2) - max(centerY - height / 2, other.centerY - other.height / 2)
        guard ix > 0, iy > 0 else { return 0 }
        let intersection = ix * iy
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}

/// How `ImageToTensorCalculator` samples a region of an image into a model input: the region in pixels,
/// padded to the input's aspect ratio (`keep_aspect_ratio`), and the maps between input pixels, the
/// region's normalised coordinates and the image.
struct RegionSampling: Sendable, Hashable {
    /// The padded region in pixels (centre, size), rotation in radians.
    var centerX: Double
    var centerY: Double
    var width: Double
    var height: Double
    var rotation: Double
    var inputWidth: Int
    var inputHeight: Int
    var imageWidth: Int
    var imageHeight: Int

    init(region: RotatedRegion, imageWidth: Int, imageHeight: Int, inputWidth: Int, inputHeight: Int, keepAspectRatio: Bool = true) {
        let (iw, ih) = (Double(imageWidth), Double(imageHeight))
        centerX = region.centerX * iw
        centerY = region.centerY * ih
        width = region.width * iw
        height = region.height * ih
        rotation = region.rotation
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        if keepAspectRatio, width > 0, height > 0 {
            // `PadRoi`: grow the shorter side so the region has the input's aspect ratio (letterbox).
            let inputAspect = Double(inputHeight) / Double(inputWidth)
            let regionAspect = height / width
            if inputAspect > regionAspect { height = width * inputAspect } else { width = height / inputAspect }
        }
    }

    /// The 3 × 3 row-major matrix from input pixel coordinates to image pixel coordinates.
    var inputToImage: [Double] {
        let c = cos(rotation), s = sin(rotation)
        let sx = width / Double(inputWidth), sy = height / Double(inputHeight)
        return [sx * c, -sy * s, centerX - 0.5 * width * c + 0.5 * height * s,
                sx * s, sy * c, centerY - 0.5 * width * s - 0.5 * height * c,
                0, 0, 1]
    }

    /// A point normalised to the (padded) region (0...1, top-left origin, along its rotated axes) in
    /// image coordinates normalised to the image (top-left origin): letterbox removal and
    /// `LandmarkProjectionCalculator` in one.
    func imagePoint(x: Double, y: Double) -> (Double, Double) {
        let dx = (x - 0.5) * width, dy = (y - 0.5) * height
        let c = cos(rotation), s = sin(rotation)
        return ((centerX + dx * c - dy * s) / Double(imageWidth), (centerY + dx * s + dy * c) / Double(imageHeight))
    }
}
