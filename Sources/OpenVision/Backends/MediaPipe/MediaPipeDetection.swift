import Foundation

/// A detection as MediaPipe's `TensorsToDetectionsCalculator` decodes it: a box and keypoints normalised
/// to the model input (0...1, top-left origin, before letterbox removal; `projected` maps them to the image) and a
/// score. The one SSD decoding and weighted NMS of the MediaPipe pipelines (palms, BlazeFace, people).
struct MediaPipeDetection: Sendable, Hashable {
    var xMin: Double
    var yMin: Double
    var xMax: Double
    var yMax: Double
    /// (x, y) pairs.
    var keypoints: [(x: Double, y: Double)]
    var score: Float

    static func == (a: Self, b: Self) -> Bool {
        a.xMin == b.xMin && a.yMin == b.yMin && a.xMax == b.xMax && a.yMax == b.yMax && a.score == b.score
            && a.keypoints.count == b.keypoints.count
            && zip(a.keypoints, b.keypoints).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(xMin)
        hasher.combine(yMin)
        hasher.combine(xMax)
        hasher.combine(yMax)
        hasher.combine(score)
    }

    /// `TensorsToDetectionsCalculatorOptions` (the fields the MediaPipe detectors set).
    struct DecodeOptions: Sendable, Hashable {
        var numCoords: Int
        var boxCoordOffset = 0
        var keypointCoordOffset: Int
        var numKeypoints: Int
        var valuesPerKeypoint = 2
        /// x, y, w, h (true) or y, x, h, w.
        var reverseOutputOrder = true
        var scaleX: Double
        var scaleY: Double
        var scaleW: Double
        var scaleH: Double
        var sigmoidScore = true
        var scoreClippingThreshold: Float? = 100
        var minScore: Float

        /// pose_detection_cpu.pbtxt, with the Python solution's `min_detection_confidence` 0.5.
        static let poseDetection = DecodeOptions(
            numCoords: 12, keypointCoordOffset: 4, numKeypoints: 4,
            scaleX: 224, scaleY: 224, scaleW: 224, scaleH: 224, minScore: 0.5)

        /// An SSD head of MediaPipe's palm and face detectors (palm_detection_cpu.pbtxt, face_detection.pbtxt): `keypoints`
        /// keypoints after 4 box values, all divided by the input size, sigmoid scores clipped at ±100.
        static func ssd(inputSize: Int, keypoints: Int, minScore: Float) -> DecodeOptions {
            let s = Double(inputSize)
            return DecodeOptions(
                numCoords: 4 + 2 * keypoints, keypointCoordOffset: 4, numKeypoints: keypoints,
                scaleX: s, scaleY: s, scaleW: s, scaleH: s, minScore: minScore)
        }
    }

    /// Decodes raw regressors (`anchors.count × numCoords`) and scores (`anchors.count`, one class) against
    /// the anchors. Throws `invalidModel` when the sizes do not match.
    static func decode(
        boxes: [Float], scores: [Float], anchors: [MediaPipeAnchors.Anchor],
        options o: DecodeOptions
    ) throws(VisionError) -> [MediaPipeDetection] {
        guard boxes.count == anchors.count * o.numCoords, scores.count == anchors.count else {
            throw VisionError(
                .invalidModel,
                "detector outputs \(boxes.count) box values and \(scores.count) scores; "
                    + "expected \(anchors.count * o.numCoords) and \(anchors.count) for \(anchors.count) anchors")
        }
        var result: [MediaPipeDetection] = []
        for (i, anchor) in anchors.enumerated() {
            var raw = scores[i]
            if let clip = o.scoreClippingThreshold { raw = min(max(raw, -clip), clip) }
            let score = o.sigmoidScore ? 1 / (1 + exp(-raw)) : raw
            guard score >= o.minScore else { continue }
            let base = i * o.numCoords + o.boxCoordOffset
            let v = { (k: Int) in Double(boxes[base + k]) }
            let (cx0, cy0, w0, h0) = o.reverseOutputOrder ? (v(0), v(1), v(2), v(3)) : (v(1), v(0), v(3), v(2))
            let cx = cx0 / o.scaleX * anchor.width + anchor.xCenter
            let cy = cy0 / o.scaleY * anchor.height + anchor.yCenter
            let w = w0 / o.scaleW * anchor.width
            let h = h0 / o.scaleH * anchor.height
            var keypoints: [(x: Double, y: Double)] = []
            for k in 0..<o.numKeypoints {
                let off = i * o.numCoords + o.keypointCoordOffset + k * o.valuesPerKeypoint
                let a = Double(boxes[off])
                let b = Double(boxes[off + 1])
                let (kx, ky) = o.reverseOutputOrder ? (a, b) : (b, a)
                keypoints.append(
                    (kx / o.scaleX * anchor.width + anchor.xCenter, ky / o.scaleY * anchor.height + anchor.yCenter))
            }
            result.append(
                MediaPipeDetection(
                    xMin: cx - w / 2, yMin: cy - h / 2, xMax: cx + w / 2, yMax: cy + h / 2,
                    keypoints: keypoints, score: score))
        }
        return result
    }

    /// Intersection over union of the boxes (0 when they do not overlap), as MediaPipe's `OverlapSimilarity`.
    func iou(_ other: MediaPipeDetection) -> Double {
        intersectionOverUnion((xMin, yMin, xMax, yMax), (other.xMin, other.yMin, other.xMax, other.yMax))
    }

    /// The detection with its box and keypoints mapped by `map` (e.g. `MediaPipeRegion.project` from the letterboxed
    /// input to image pixels); the box is the bounding box of its four mapped corners.
    func projected(_ map: (Double, Double) -> (x: Double, y: Double)) -> MediaPipeDetection {
        let corners = [map(xMin, yMin), map(xMax, yMin), map(xMax, yMax), map(xMin, yMax)]
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return MediaPipeDetection(
            xMin: xs.min() ?? 0, yMin: ys.min() ?? 0, xMax: xs.max() ?? 0, yMax: ys.max() ?? 0,
            keypoints: keypoints.map { map($0.x, $0.y) }, score: score)
    }

    /// MediaPipe's weighted non-maximum suppression (`NonMaxSuppressionCalculator`, `algorithm: WEIGHTED`):
    /// the best remaining detection takes the score-weighted mean box and keypoints of every remaining
    /// detection overlapping it by more than `threshold` (IoU), which are then removed. Best first, at most
    /// `maximumCount`; a degenerate box (no area: it overlaps nothing, not even itself) is kept alone.
    static func weightedNonMaxSuppression(
        _ detections: [MediaPipeDetection], threshold: Double,
        maximumCount: Int = .max
    ) -> [MediaPipeDetection] {
        var remaining = detections.sorted { $0.score > $1.score }
        var output: [MediaPipeDetection] = []
        while let best = remaining.first, output.count < maximumCount {
            var candidates: [MediaPipeDetection] = [best]
            var rest: [MediaPipeDetection] = []
            for d in remaining.dropFirst() {
                if best.iou(d) > threshold { candidates.append(d) } else { rest.append(d) }
            }
            var merged = best
            let total = candidates.reduce(0.0) { $0 + Double($1.score) }
            if total > 0 {
                func mean(_ value: (MediaPipeDetection) -> Double) -> Double {
                    candidates.reduce(0.0) { $0 + value($1) * Double($1.score) } / total
                }
                merged.xMin = mean(\.xMin)
                merged.yMin = mean(\.yMin)
                merged.xMax = mean(\.xMax)
                merged.yMax = mean(\.yMax)
                merged.keypoints = best.keypoints.indices.map { k in
                    (mean { $0.keypoints[k].x }, mean { $0.keypoints[k].y })
                }
            }
            output.append(merged)
            remaining = rest
        }
        return output
    }
}
