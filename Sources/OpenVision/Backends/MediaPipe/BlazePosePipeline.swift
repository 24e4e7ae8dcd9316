import Foundation

/// MediaPipe's two-stage body pose pipeline (pose_landmark_cpu.pbtxt, static-image mode) on the wheel's
/// own model files: `pose_detection.tflite` finds people (an SSD over 2254 anchors whose boxes are faces,
/// with 4 keypoints: hips' middle, a point giving the body's size and rotation, and the same for the upper
/// body), then `pose_landmark_full.tflite` reads 39 landmarks (33 body points, 2 auxiliary, 4 unused) from a
/// 256 × 256 crop of the rotated body region, refined with its 64 × 64 heat maps and projected back.
struct BlazePosePipeline: Sendable {
    static let detectorName = "pose_detection.tflite"
    static let landmarkerName = "pose_landmark_full.tflite"
    static let anchors = MediaPipeAnchors(.poseDetection).anchors
    /// pose_detection_cpu.pbtxt: weighted NMS at IoU 0.3.
    static let suppressionThreshold = 0.3
    /// The pose-presence flag's threshold (the Python solution's `min_tracking_confidence`, 0.5).
    static let presenceThreshold: Float = 0.5
    static let landmarkCount = 39
    static let bodyLandmarkCount = 33

    let detector: VisionModel
    let landmarker: VisionModel

    /// The pipeline on the installed models (loaded once per process). Throws `missingModelData` when
    /// they are not installed.
    static func installed() throws(VisionError) -> BlazePosePipeline {
        BlazePosePipeline(
            detector: try MediaPipeModels.model(detectorName), landmarker: try MediaPipeModels.model(landmarkerName))
    }

    /// A person found by the detector: its face box and keypoints in image pixels (top-left origin).
    struct PersonDetection {
        var box: (x1: Double, y1: Double, x2: Double, y2: Double)
        var keypoints: [(x: Double, y: Double)]
        var score: Float
    }

    /// People in `image`, best first: decoded, suppressed, and mapped back from the letterboxed input.
    func detectPeople(in image: VisionImage) throws(VisionError) -> [PersonDetection] {
        // ImageToTensorCalculator: the whole image letterboxed (zero border) into 224 × 224, values in -1...1.
        let p = detector.modelDescription.preprocessing
        let region = MediaPipeRegion.fullImage(width: image.width, height: image.height)
            .keepingAspectRatio(tensorWidth: p.width, tensorHeight: p.height)
        let input = try MediaPipeTensorInput.tensor(
            for: detector, image: image, region: region, range: -1...1, borderZero: true)
        let outputs = try detector.backend.run([input])
        let anchors = Self.anchors
        let o = MediaPipeDetection.DecodeOptions.poseDetection
        guard let boxes = outputs.first(where: { $0.count == anchors.count * o.numCoords }),
            let scores = outputs.first(where: { $0.count == anchors.count })
        else {
            throw VisionError(
                .invalidModel,
                "\(detector.url.lastPathComponent): expected outputs of \(anchors.count * o.numCoords) and "
                    + "\(anchors.count) values (pose_detection.tflite), got \(outputs.map(\.shape))")
        }
        let decoded = try MediaPipeDetection.decode(
            boxes: boxes.scalars, scores: scores.scalars, anchors: anchors, options: o)
        let kept = MediaPipeDetection.weightedNonMaxSuppression(decoded, threshold: Self.suppressionThreshold)
        // DetectionLetterboxRemovalCalculator: input-normalised → image pixels.
        return kept.map { d in
            let a = region.project(x: d.xMin, y: d.yMin)
            let b = region.project(x: d.xMax, y: d.yMax)
            return PersonDetection(
                box: (a.x, a.y, b.x, b.y), keypoints: d.keypoints.map { region.project(x: $0.x, y: $0.y) },
                score: d.score)
        }
    }

    /// What the landmark model reads of one person (`pose_landmark_by_roi_cpu.pbtxt`): the 33 body landmarks in
    /// image pixels (top-left origin) with their visibility, the 33 world landmarks, the pose-presence score, the
    /// region they were read in, and the 256 × 256 segmentation of that region.
    struct Estimate {
        var points: [(x: Double, y: Double, visibility: Float)]
        /// `WorldLandmarkProjectionCalculator`: metres, origin between the hips, x right and y down as the image's
        /// axes, z away from the camera (MediaPipe's `pose_world_landmarks`).
        var world: [SIMD3<Double>]
        var presence: Float
        var region: MediaPipeRegion
        /// The person probability (sigmoid of the model's logits, `TensorsToSegmentationCalculator`) over the region,
        /// `segmentationSize` × `segmentationSize`, row-major, top-left origin; nil unless asked for (or when the model has no such output).
        var segmentation: [Float]?
        /// The detector's box (face) in image pixels.
        var box: (x1: Double, y1: Double, x2: Double, y2: Double)
    }

    static let segmentationSize = 256

    /// The landmarks of the person in `region` of `image`, or nil when the model says no pose is there; with
    /// `segmentation`, the region's person probabilities too (65536 sigmoids, skipped otherwise).
    func landmarks(in image: VisionImage, region: MediaPipeRegion, segmentation wanted: Bool = false)
        throws(VisionError) -> Estimate?
    {
        let p = landmarker.modelDescription.preprocessing
        // The body region is square: keeping the aspect ratio adds no letterbox.
        let input = try MediaPipeTensorInput.tensor(
            for: landmarker, image: image, region: region, range: 0...1, borderZero: false)
        let outputs = try landmarker.backend.run([input])
        let n = Self.landmarkCount
        guard let raw = outputs.first(where: { $0.count == n * 5 }), let flag = outputs.first(where: { $0.count == 1 }),
            let worldRaw = outputs.first(where: { $0.count == n * 3 })
        else {
            throw VisionError(
                .invalidModel,
                "\(landmarker.url.lastPathComponent): expected a \(n * 5)-value landmark output, a "
                    + "\(n * 3)-value world landmark output and a pose flag (pose_landmark_full.tflite), got \(outputs.map(\.shape))"
            )
        }
        let presence = flag.scalars[0]
        guard presence >= Self.presenceThreshold else { return nil }
        // TensorsToLandmarksCalculator: x, y in input pixels; visibility through a sigmoid.
        var points = (0..<n).map { i in
            (x: Double(raw.scalars[i * 5]) / Double(p.width), y: Double(raw.scalars[i * 5 + 1]) / Double(p.height))
        }
        if let heatmap = outputs.first(where: { $0.shape.count == 4 && ($0.shape[3] == n || $0.shape[1] == n) }) {
            let hwc = heatmap.shape[3] == n
            let rows = hwc ? heatmap.shape[1] : heatmap.shape[2]
            let columns = hwc ? heatmap.shape[2] : heatmap.shape[3]
            let values =
                hwc ? heatmap.scalars : Self.chwToHWC(heatmap.scalars, channels: n, rows: rows, columns: columns)
            HeatmapRefinement.refine(&points, heatmap: values, rows: rows, columns: columns, channels: n)
        }
        let body = (0..<Self.bodyLandmarkCount).map { i in
            let q = region.project(x: points[i].x, y: points[i].y)
            return (x: q.x, y: q.y, visibility: 1 / (1 + exp(-raw.scalars[i * 5 + 3])))
        }
        // WorldLandmarkProjectionCalculator: the model's metres turned by the region's rotation (about the camera axis).
        let c = cos(region.rotation)
        let s = sin(region.rotation)
        let world = (0..<Self.bodyLandmarkCount).map { i in
            let x = Double(worldRaw.scalars[i * 3])
            let y = Double(worldRaw.scalars[i * 3 + 1])
            let z = Double(worldRaw.scalars[i * 3 + 2])
            return SIMD3(c * x - s * y, s * x + c * y, z)
        }
        let side = Self.segmentationSize
        let segmentation =
            wanted
            ? outputs.first(where: { $0.count == side * side }).map { t in t.scalars.map { 1 / (1 + exp(-$0)) } } : nil
        return Estimate(
            points: body, world: world, presence: presence, region: region, segmentation: segmentation,
            box: (0, 0, 0, 0))
    }

    /// Every person's landmarks in `image`, best detection first, at most `maximumCount`; a pose whose landmarks'
    /// box overlaps an earlier one's by more than half (IoU) is the same person found twice and is dropped.
    func estimates(in image: VisionImage, maximumCount: Int, segmentation: Bool = false) throws(VisionError)
        -> [Estimate]
    {
        var result: [Estimate] = []
        var extents: [NormalizedRect] = []
        for person in try detectPeople(in: image) {
            guard result.count < maximumCount else { break }
            guard person.keypoints.count >= 2 else { continue }
            let region = MediaPipeRegion.body(center: person.keypoints[0], scalePoint: person.keypoints[1])
            guard region.width >= 1, region.width.isFinite else { continue }
            guard var found = try landmarks(in: image, region: region, segmentation: segmentation) else { continue }
            let xs = found.points.map(\.x)
            let ys = found.points.map(\.y)
            let extent = NormalizedRect(
                x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0),
                height: (ys.max() ?? 0) - (ys.min() ?? 0))
            if extents.contains(where: { $0.intersectionOverUnion(extent) > 0.5 }) { continue }
            extents.append(extent)
            found.box = person.box
            result.append(found)
        }
        return result
    }

    /// Every person's pose in `image` (see `estimates(in:maximumCount:)`).
    func poses(in image: VisionImage, maximumCount: Int) throws(VisionError) -> [HumanBodyPoseObservation] {
        try estimates(in: image, maximumCount: maximumCount).map { e throws(VisionError) in
            try Self.observation(e, image: image)
        }
    }

    /// The 2D observation of an estimate.
    static func observation(_ e: Estimate, image: VisionImage) throws(VisionError) -> HumanBodyPoseObservation {
        let toNormalized = PixelToNormalized(image)
        let points = e.points.enumerated().map { i, q in
            RecognizedPoint(
                identifier: HumanBodyPoseObservation.BodyLandmark.allCases[i].name,
                location: toNormalized.point(q.x, q.y), confidence: q.visibility)
        }
        let box = toNormalized.rect(
            x: min(e.box.x1, e.box.x2), y: min(e.box.y1, e.box.y2),
            width: abs(e.box.x2 - e.box.x1), height: abs(e.box.y2 - e.box.y1))
        return try HumanBodyPoseObservation(landmarks: points, confidence: e.presence, detectionBox: box)
    }

    /// The estimate's person probability over the whole image (`width` × `height`, row-major), as
    /// `WarpAffineCalculator` projects the region's segmentation back (bilinear, zero outside the region), written
    /// into `probability` (and `instance` into `label`) where it is at least 0.5 and above what they hold. Only the region's bounding
    /// box is visited.
    static func paintSegmentation(
        _ e: Estimate, instance: Float, width: Int, height: Int,
        probability: inout [Float], label: inout [Float]
    ) {
        guard let mask = e.segmentation else { return }
        let side = segmentationSize
        let m = e.region.cropTransform(outputWidth: side, outputHeight: side).rowMajor
        let r = e.region
        let c = abs(cos(r.rotation))
        let sn = abs(sin(r.rotation))
        let halfX = (r.width * c + r.height * sn) / 2 + 1
        let halfY = (r.width * sn + r.height * c) / 2 + 1
        guard halfX.isFinite, halfY.isFinite, r.centerX.isFinite, r.centerY.isFinite else { return }
        // Clamped in floating point first: a degenerate region cannot overflow the conversion.
        func index(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, 0), Double(limit - 1))) }
        let x0 = index((r.centerX - halfX).rounded(.down), width)
        let x1 = index((r.centerX + halfX).rounded(.up), width)
        let y0 = index((r.centerY - halfY).rounded(.down), height)
        let y1 = index((r.centerY + halfY).rounded(.up), height)
        guard x0 <= x1, y0 <= y1 else { return }
        mask.withUnsafeBufferPointer { src in
            probability.withUnsafeMutableBufferPointer { prob in
                label.withUnsafeMutableBufferPointer { lab in
                    for y in y0...y1 {
                        for x in x0...x1 {
                            let u = m[0] * Double(x) + m[1] * Double(y) + m[2]
                            let v = m[3] * Double(x) + m[4] * Double(y) + m[5]
                            guard u > -1, v > -1, u < Double(side), v < Double(side) else { continue }
                            let fu = u.rounded(.down)
                            let fv = v.rounded(.down)
                            let iu = Int(fu)
                            let iv = Int(fv)
                            let au = Float(u - fu)
                            let av = Float(v - fv)
                            func at(_ i: Int, _ j: Int) -> Float {
                                i >= 0 && j >= 0 && i < side && j < side ? src[j * side + i] : 0
                            }
                            let value =
                                (at(iu, iv) * (1 - au) + at(iu + 1, iv) * au) * (1 - av)
                                + (at(iu, iv + 1) * (1 - au) + at(iu + 1, iv + 1) * au) * av
                            let k = y * width + x
                            if value >= 0.5, value > prob[k] {
                                prob[k] = value
                                lab[k] = instance
                            }
                        }
                    }
                }
            }
        }
    }

    /// MediaPipe Holistic's hand region from a pose (hand_landmarks_from_pose_to_recrop_roi.pbtxt, mediapipe 0.10.14):
    /// `HandDetectionsFromPoseToRectsCalculator` (centre at the middle finger estimated as (2 × index + pinky) / 3,
    /// a square twice the wrist → middle distance, rotated so that wrist → middle points up), then
    /// `RectTransformationCalculator` (scale 2.7, shifted a tenth of its height towards the fingers — the graph's
    /// `shift_y: -0.1` —, squared on its long side). Points in image pixels.
    static func handRegion(wrist: (x: Double, y: Double), index: (x: Double, y: Double), pinky: (x: Double, y: Double))
        -> MediaPipeRegion
    {
        let middle = (x: (2 * index.x + pinky.x) / 3, y: (2 * index.y + pinky.y) / 3)
        let size = 2 * hypot(middle.x - wrist.x, middle.y - wrist.y)
        let rotation = MediaPipeRegion.normalizedRadians(.pi / 2 - atan2(-(middle.y - wrist.y), middle.x - wrist.x))
        return MediaPipeRegion(centerX: middle.x, centerY: middle.y, width: size, height: size, rotation: rotation)
            .transformed(scaleX: 2.7, scaleY: 2.7, shiftY: -0.1, squareLong: true)
    }

    /// `HandLandmarksToRectCalculator` then `RectTransformationCalculator` (hand_landmark_landmarks_to_roi.pbtxt): the
    /// box of the wrist, thumb and finger-base landmarks in the frame turned so that the wrist → (middle MCP and the mean
    /// of index and ring MCPs) direction points up, scaled 2, shifted a tenth of its height towards the fingers,
    /// squared on its long side. `landmarks`: the 21 hand landmarks in image pixels.
    static func handRegion(landmarks p: [(x: Double, y: Double)]) -> MediaPipeRegion {
        let wrist = p[0]
        let x1 = ((p[5].x + p[13].x) / 2 + p[9].x) / 2
        let y1 = ((p[5].y + p[13].y) / 2 + p[9].y) / 2
        let rotation = MediaPipeRegion.normalizedRadians(.pi / 2 - atan2(-(y1 - wrist.y), x1 - wrist.x))
        let subset = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18].map { p[$0] }
        let c = cos(rotation)
        let s = sin(rotation)
        // Axis-aligned bounds of the points turned by −rotation (about the origin), then the centre turned back.
        let turned = subset.map { (x: c * $0.x + s * $0.y, y: -s * $0.x + c * $0.y) }
        let (minX, maxX) = (turned.map(\.x).min() ?? 0, turned.map(\.x).max() ?? 0)
        let (minY, maxY) = (turned.map(\.y).min() ?? 0, turned.map(\.y).max() ?? 0)
        let cx = (minX + maxX) / 2
        let cy = (minY + maxY) / 2
        return MediaPipeRegion(
            centerX: c * cx - s * cy, centerY: s * cx + c * cy, width: maxX - minX, height: maxY - minY,
            rotation: rotation
        )
        .transformed(scaleX: 2, scaleY: 2, shiftY: -0.1, squareLong: true)
    }

    /// Holistic's wrist visibility threshold for reading a hand from the pose (`hand_visibility` ≥ 0.1).
    static let handVisibilityThreshold: Float = 0.1

    /// The person's left and right hands read by `hands`' landmark model in the regions their pose gives (see
    /// `handRegion`); nil for a hand whose wrist is not visible, whose region is empty, or where the model finds no hand.
    static func hands(of e: Estimate, in image: VisionImage, with hands: HandPosePipeline) throws(VisionError)
        -> (left: HandPosePipeline.Hand?, right: HandPosePipeline.Hand?)
    {
        typealias L = HumanBodyPoseObservation.BodyLandmark
        func read(_ wrist: L, _ index: L, _ pinky: L) throws(VisionError) -> HandPosePipeline.Hand? {
            let w = e.points[wrist.rawValue]
            let i = e.points[index.rawValue]
            let p = e.points[pinky.rawValue]
            guard w.visibility >= handVisibilityThreshold else { return nil }
            let region = handRegion(wrist: (w.x, w.y), index: (i.x, i.y), pinky: (p.x, p.y))
            guard region.width >= 1, region.width.isFinite, region.centerX.isFinite, region.centerY.isFinite else {
                return nil
            }
            guard let first = try hands.hand(in: image, region: region) else { return nil }
            // The region of the landmarks read, as the hand tracking graphs make the next frame's (Holistic's
            // still-image refinement, hand_recrop.tflite, is not installed); read again there.
            let (iw, ih) = (Double(image.width), Double(image.height))
            let refined = handRegion(landmarks: first.landmarks.map { (x: $0.x * iw, y: $0.y * ih) })
            guard refined.width >= 1, refined.width.isFinite, refined.centerX.isFinite, refined.centerY.isFinite else {
                return first
            }
            return try hands.hand(in: image, region: refined) ?? first
        }
        return (try read(.leftWrist, .leftIndex, .leftPinky), try read(.rightWrist, .rightIndex, .rightPinky))
    }

    static func chwToHWC(_ values: [Float], channels: Int, rows: Int, columns: Int) -> [Float] {
        var out = [Float](repeating: 0, count: values.count)
        for c in 0..<channels {
            for i in 0..<(rows * columns) { out[i * channels + c] = values[c * rows * columns + i] }
        }
        return out
    }
}
