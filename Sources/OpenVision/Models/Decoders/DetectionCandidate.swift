/// One raw detection before non-maximum suppression: a box in model-input pixels (corners,
/// top-left origin), its score, class, and the best few class scores.
public struct DetectionCandidate: Sendable, Hashable {
    public var x1: Float
    public var y1: Float
    public var x2: Float
    public var y2: Float
    public var score: Float
    public var classIndex: Int
    /// (class, score) pairs, best first, at most 5; the first is (`classIndex`, `score`).
    public var classScores: [ClassScore]

    public struct ClassScore: Sendable, Hashable {
        public var classIndex: Int
        public var score: Float
    }

    public init(x1: Float, y1: Float, x2: Float, y2: Float, score: Float, classIndex: Int, classScores: [ClassScore]? = nil) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.score = score
        self.classIndex = classIndex
        self.classScores = classScores ?? [ClassScore(classIndex: classIndex, score: score)]
    }

    var area: Float { max(0, x2 - x1) * max(0, y2 - y1) }

    func iou(_ o: DetectionCandidate) -> Float {
        intersectionOverUnion((x1, y1, x2, y2), (o.x1, o.y1, o.x2, o.y2))
    }
}

/// Greedy non-maximum suppression, as torchvision's `nms` / `batched_nms`.
public enum NonMaximumSuppression {
    /// Keeps the highest-scoring candidates, dropping any whose IoU with a kept one (of the same
    /// class unless `classAgnostic`) exceeds `iouThreshold`; at most `limit` (0 = no limit).
    public static func apply(_ candidates: [DetectionCandidate], iouThreshold: Float, classAgnostic: Bool,
                             limit: Int = 0) -> [DetectionCandidate] {
        let sorted = candidates.sorted { $0.score > $1.score }
        var kept: [DetectionCandidate] = []
        kept.reserveCapacity(min(sorted.count, limit > 0 ? limit : sorted.count))
        for candidate in sorted {
            var suppressed = false
            for k in kept where (classAgnostic || k.classIndex == candidate.classIndex) && k.iou(candidate) > iouThreshold {
                suppressed = true
                break
            }
            if !suppressed {
                kept.append(candidate)
                if limit > 0 && kept.count >= limit { break }
            }
        }
        return kept
    }
}
