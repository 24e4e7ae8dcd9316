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
        BlazePosePipeline(detector: try MediaPipeModels.model(detectorName), landmarker: try MediaPipeModels.model(landmarkerName))
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
        let input = try MediaPipeTensorInput.tensor(for: detector, image: image, region: region, range: -1...1, borderZero: true)
        let outputs = try detector.backend.run([input])
        let anchors = Self.anchors
        let o = MediaPipeDetection.DecodeOptions.poseDetection
        guard let boxes = outputs.first(where: { $0.count == anchors.count * o.numCoords }),
              let scores = outputs.first(where: { $0.count == anchors.count }) else {
            throw VisionError(.invalidModel, "\(detector.url.lastPathComponent): expected outputs of \(anchors.count * o.numCoords) and "
                + "\(anchors.count) values (pose_detection.tflite), got \(outputs.map(\.shape))")
        }
        let decoded = try MediaPipeDetection.decode(boxes: boxes.scalars, scores: scores.scalars, anchors: anchors, options: o)
        let kept = MediaPipeDetection.weightedNonMaxSuppression(decoded, threshold: Self.suppressionThreshold)
        // DetectionLetterboxRemovalCalculator: input-normalised → image pixels.
        return kept.map { d in
            let a = region.project(x: d.xMin, y: d.yMin), b = region.project(x: d.xMax, y: d.yMax)
            return PersonDetection(box: (a.x, a.y, b.x, b.y), keypoints: d.keypoints.map { region.project(x: $0.x, y: $0.y) },
                                   score: d.score)
        }
    }

    /// The landmarks of the person in `region` of `image`, or nil when the model says no pose is there.
    /// Returns the 33 body landmarks in image pixels (top-left origin) with their visibility, and the
    /// pose-presence score.
    func landmarks(in image: VisionImage, region: MediaPipeRegion) throws(VisionError)
        -> (points: [(x: Double, y: Double, visibility: Float)], presence: Float)? {
        let p = landmarker.modelDescription.preprocessing
        // The body region is square: keeping the aspect ratio adds no letterbox.
        let input = try MediaPipeTensorInput.tensor(for: landmarker, image: image, region: region, range: 0...1, borderZero: false)
        let outputs = try landmarker.backend.run([input])
        let n = Self.landmarkCount
        guard let raw = outputs.first(where: { $0.count == n * 5 }), let flag = outputs.first(where: { $0.count == 1 }) else {
            throw VisionError(.invalidModel, "\(landmarker.url.lastPathComponent): expected a \(n * 5)-value landmark output and a "
                + "pose flag (pose_landmark_full.tflite), got \(outputs.map(\.shape))")
        }
        let presence = flag.scalars[0]
        guard presence >= Self.presenceThreshold else { return nil }
        // TensorsToLandmarksCalculator: x, y in input pixels; visibility through a sigmoid.
        var points = (0..<n).map { i in (x: Double(raw.scalars[i * 5]) / Double(p.width), y: Double(raw.scalars[i * 5 + 1]) / Double(p.height)) }
        if let heatmap = outputs.first(where: { $0.shape.count == 4 && ($0.shape[3] == n || $0.shape[1] == n) }) {
            let hwc = heatmap.shape[3] == n
            let rows = hwc ? heatmap.shape[1] : heatmap.shape[2], columns = hwc ? heatmap.shape[2] : heatmap.shape[3]
            let values = hwc ? heatmap.scalars : Self.chwToHWC(heatmap.scalars, channels: n, rows: rows, columns: columns)
            HeatmapRefinement.refine(&points, heatmap: values, rows: rows, columns: columns, channels: n)
        }
        let body = (0..<Self.bodyLandmarkCount).map { i in
            let q = region.project(x: points[i].x, y: points[i].y)
            return (x: q.x, y: q.y, visibility: 1 / (1 + exp(-raw.scalars[i * 5 + 3])))
        }
        return (body, presence)
    }

    /// Every person's pose in `image`, best detection first, at most `maximumCount`; a pose whose
    /// landmarks' box overlaps an earlier one's by more than half (IoU) is the same person found twice and
    /// is dropped.
    func poses(in image: VisionImage, maximumCount: Int) throws(VisionError) -> [HumanBodyPoseObservation] {
        let toNormalized = PixelToNormalized(image)
        var result: [HumanBodyPoseObservation] = []
        var extents: [NormalizedRect] = []
        for person in try detectPeople(in: image) {
            guard result.count < maximumCount else { break }
            guard person.keypoints.count >= 2 else { continue }
            let region = MediaPipeRegion.body(center: person.keypoints[0], scalePoint: person.keypoints[1])
            guard region.width >= 1, region.width.isFinite else { continue }
            guard let found = try landmarks(in: image, region: region) else { continue }
            let points = found.points.enumerated().map { i, q in
                RecognizedPoint(identifier: HumanBodyPoseObservation.BodyLandmark.allCases[i].name,
                                location: toNormalized.point(q.x, q.y), confidence: q.visibility)
            }
            let xs = points.map(\.location.x), ys = points.map(\.location.y)
            let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
            let extent = NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            if extents.contains(where: { $0.intersectionOverUnion(extent) > 0.5 }) { continue }
            extents.append(extent)
            let box = toNormalized.rect(x: min(person.box.x1, person.box.x2), y: min(person.box.y1, person.box.y2),
                                        width: abs(person.box.x2 - person.box.x1), height: abs(person.box.y2 - person.box.y1))
            result.append(try HumanBodyPoseObservation(landmarks: points, confidence: found.presence, detectionBox: box))
        }
        return result
    }

    static func chwToHWC(_ values: [Float], channels: Int, rows: Int, columns: Int) -> [Float] {
        var out = [Float](repeating: 0, count: values.count)
        for c in 0..<channels {
            for i in 0..<(rows * columns) { out[i * channels + c] = values[c * rows * columns + i] }
        }
        return out
    }
}
