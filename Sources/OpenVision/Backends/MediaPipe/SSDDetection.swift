import Foundation

/// One decoded SSD detection in MediaPipe's convention: a box and keypoints normalised to the model
/// input (or, after `mapped`, to the image), top-left origin.
struct SSDDetection: Sendable, Hashable {
    var xmin: Double
    var ymin: Double
    var width: Double
    var height: Double
    var score: Float
    /// Keypoints (x, y), in the model's order.
    var keypoints: [NormalizedKeypoint]

    struct NormalizedKeypoint: Sendable, Hashable {
        var x: Double
        var y: Double
    }

    var xmax: Double { xmin + width }
    var ymax: Double { ymin + height }

    /// Intersection over union of the two boxes (0 when they do not overlap), as MediaPipe's `OverlapSimilarity`.
    func iou(_ other: SSDDetection) -> Double {
        let ix = min(xmax, other.xmax) - max(xmin, other.xmin)
        let iy = min(ymax, other.ymax) - max(ymin, other.ymin)
        guard ix > 0, iy > 0 else { return 0 }
        let intersection = ix * iy
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }

    /// The same detection with its box corners and keypoints mapped by `transform` (e.g. from the
    /// letterboxed input to the image); the box is the mapped corners' bounding box.
    func mapped(_ transform: (Double, Double) -> (Double, Double)) -> SSDDetection {
        let corners = [transform(xmin, ymin), transform(xmax, ymin), transform(xmax, ymax), transform(xmin, ymax)]
        let xs = corners.map(\.0), ys = corners.map(\.1)
        var result = self
        result.xmin = xs.min()!
        result.ymin = ys.min()!
        result.width = xs.max()! - result.xmin
        result.height = ys.max()! - result.ymin
        result.keypoints = keypoints.map { let p = transform($0.x, $0.y); return NormalizedKeypoint(x: p.0, y: p.1) }
        return result
    }
}

/// MediaPipe's `TensorsToDetectionsCalculator` for the BlazeFace / palm heads (`reverse_output_order`, no
/// exponential box sizes, sigmoid scores with clipping), and its weighted `NonMaxSuppressionCalculator`.
struct SSDDecoder: Sendable {
    var anchors: [MediaPipeAnchors.Anchor]
    /// Values per anchor row: 4 box values, then 2 per keypoint.
    var coordinateCount: Int
    var keypointCount: Int
    /// Raw box values are divided by this (the input size in pixels).
    var scale: Double
    var scoreClippingThreshold: Float = 100
    var minimumScore: Float
    /// Boxes overlapping a better one by more than this IoU are merged into it.
    var suppressionThreshold: Double = 0.3

    init(anchors: MediaPipeAnchors.Options, keypointCount: Int, minimumScore: Float) {
        self.anchors = MediaPipeAnchors(anchors).anchors
        self.keypointCount = keypointCount
        self.coordinateCount = 4 + 2 * keypointCount
        self.scale = Double(anchors.inputWidth)
        self.minimumScore = minimumScore
    }

    /// Decodes the regressors ([1, N, coordinateCount]) and classificators ([1, N, 1]) into detections
    /// scoring at least `minimumScore`, in anchor order. Throws `invalidModel` when the tensors' sizes do
    /// not match the anchors.
    func decode(boxes: Tensor, scores: Tensor) throws(VisionError) -> [SSDDetection] {
        let n = anchors.count
        guard boxes.count == n * coordinateCount, scores.count == n else {
            throw VisionError(.invalidModel, "the detector's outputs have \(boxes.count) box values and \(scores.count) scores; "
                + "expected \(n) × \(coordinateCount) and \(n) for \(n) anchors")
        }
        var result: [SSDDetection] = []
        let b = boxes.scalars, s = scores.scalars
        for i in 0..<n {
            let raw = max(-scoreClippingThreshold, min(scoreClippingThreshold, s[i]))
            let score = 1 / (1 + exp(-raw))
            guard score >= minimumScore else { continue }
            let o = i * coordinateCount
            let anchor = anchors[i]
            let cx = Double(b[o]) / scale + anchor.xCenter
            let cy = Double(b[o + 1]) / scale + anchor.yCenter
            let w = Double(b[o + 2]) / scale
            let h = Double(b[o + 3]) / scale
            // MediaPipe drops boxes the model predicts with a negative (or NaN) size.
            guard w >= 0, h >= 0 else { continue }
            var keypoints: [SSDDetection.NormalizedKeypoint] = []
            keypoints.reserveCapacity(keypointCount)
            for k in 0..<keypointCount {
                keypoints.append(.init(x: Double(b[o + 4 + 2 * k]) / scale + anchor.xCenter, y: Double(b[o + 5 + 2 * k]) / scale + anchor.yCenter))
            }
            result.append(SSDDetection(xmin: cx - w / 2, ymin: cy - h / 2, width: w, height: h, score: score, keypoints: keypoints))
        }
        return result
    }

    /// MediaPipe's weighted non-maximum suppression: from the best remaining detection, every detection
    /// overlapping it by more than `suppressionThreshold` (itself included) is averaged into it, weighted
    /// by score (box corners and keypoints); the best one's score is kept. Best first.
    func weightedNonMaxSuppression(_ detections: [SSDDetection]) -> [SSDDetection] {
        var remaining = detections.sorted { $0.score > $1.score }
        var output: [SSDDetection] = []
        while let best = remaining.first {
            var candidates: [SSDDetection] = []
            var rest: [SSDDetection] = []
            for d in remaining {
                if d.iou(best) > suppressionThreshold { candidates.append(d) } else { rest.append(d) }
            }
            var merged = best
            if !candidates.isEmpty {
                var total = 0.0, x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
                var points = [Double](repeating: 0, count: 2 * best.keypoints.count)
                for c in candidates {
                    let weight = Double(c.score)
                    total += weight
                    x1 += c.xmin * weight; y1 += c.ymin * weight
                    x2 += c.xmax * weight; y2 += c.ymax * weight
                    for (k, p) in c.keypoints.enumerated() where k < best.keypoints.count {
                        points[2 * k] += p.x * weight
                        points[2 * k + 1] += p.y * weight
                    }
                }
                merged.xmin = x1 / total
                merged.ymin = y1 / total
                merged.width = (x2 - x1) / total
                merged.height = (y2 - y1) / total
                merged.keypoints = (0..<best.keypoints.count).map { .init(x: points[2 * $0] / total, y: points[2 * $0 + 1] / total) }
            }
            output.append(merged)
            // A degenerate box overlaps nothing, not even itself: stop rather than loop on it.
            if rest.count == remaining.count { break }
            remaining = rest
        }
        return output
    }
}
