/// One raw detection before non-maximum suppression: a box in model-input pixels (corners,
/// top-left origin), its score, class, and the best few class scores.
public struct DetectionCandidate: Sendable, Hashable {
    /// Left edge in model-input pixels.
    public var x1: Float
    /// Top edge in model-input pixels (y down).
    public var y1: Float
    /// Right edge in model-input pixels.
    public var x2: Float
    /// Bottom edge in model-input pixels (y down).
    public var y2: Float
    /// The detection's score, 0...1, by which non-maximum suppression ranks candidates.
    public var score: Float
    /// The best class's index into the model's labels.
    public var classIndex: Int
    /// (class, score) pairs, best first, at most 5; the first is (`classIndex`, `score`).
    public var classScores: [ClassScore]

    /// One class's score for a candidate.
    public struct ClassScore: Sendable, Hashable {
        /// The class's index into the model's labels.
        public var classIndex: Int
        /// The class's score, 0...1.
        public var score: Float
    }

    /// A candidate from its fields; `classScores` nil gives just (`classIndex`, `score`).
    public init(
        x1: Float, y1: Float, x2: Float, y2: Float, score: Float, classIndex: Int, classScores: [ClassScore]? = nil
    ) {
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
    public static func apply(
        _ candidates: [DetectionCandidate], iouThreshold: Float, classAgnostic: Bool,
        limit: Int = 0
    ) -> [DetectionCandidate] {
        let sorted = candidates.sorted { $0.score > $1.score }
        var kept: [DetectionCandidate] = []
        kept.reserveCapacity(min(sorted.count, limit > 0 ? limit : sorted.count))
        for candidate in sorted {
            var suppressed = false
            for k in kept
            where (classAgnostic || k.classIndex == candidate.classIndex) && k.iou(candidate) > iouThreshold {
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
