import Foundation

/// Turns detector outputs into candidates (model-input pixels) above a score threshold.
struct DetectionDecoder: Sendable {
    var format: DetectionOutputFormat
    /// Model input size, to scale normalised outputs to pixels.
    var inputWidth: Float
    var inputHeight: Float
    var threshold: Float
    var allowedClasses: Set<Int>?
    /// SSD only: the scores' first column is a background class (softmax over background + classes, as
    /// TF/torchvision SSDs and UltraFace): it is skipped and class indices count from the next column.
    var backgroundColumn = false

    func candidates(from outputs: [Tensor]) throws(VisionError) -> (candidates: [DetectionCandidate], classCount: Int) {
        switch format {
        case .darknet: return try darknet(outputs)
        case .yolov5: return try yolov5(outputs)
        case .yolov8: return try yolov8(outputs)
        case .endToEnd: return try endToEnd(outputs)
        case .ssd: return try ssd(outputs)
        case .detectionOutput: return try detectionOutput(outputs)
        case .yunet: return try yunet(outputs)
        case .fastestDet: return try fastestDet(outputs)
        case .coreML: return try coreML(outputs)
        }
    }

    private func shapeError(_ outputs: [Tensor]) -> VisionError {
        VisionError(
            .invalidModel,
            "the \(format.rawValue) decoder does not understand output shapes "
                + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
    }

    /// Top-k (class, score) of a row of class scores, skipping classes not allowed.
    @inline(__always)
    private func best(
        _ scores: UnsafeBufferPointer<Float>, stride: Int = 1, count: Int, multiplier: Float = 1,
        minimum: Float? = nil
    ) -> (Int, Float, [DetectionCandidate.ClassScore])? {
        var bestIndex = -1
        var bestScore: Float = -.infinity
        if let allowed = allowedClasses {
            for c in 0..<count where allowed.contains(c) {
                let s = scores[c * stride] * multiplier
                if s > bestScore {
                    bestScore = s
                    bestIndex = c
                }
            }
        } else {
            for c in 0..<count {
                let s = scores[c * stride]
                if s > bestScore {
                    bestScore = s
                    bestIndex = c
                }
            }
            bestScore *= multiplier
        }
        guard bestIndex >= 0, bestScore >= (minimum ?? threshold) else { return nil }
        var top: [DetectionCandidate.ClassScore] = []
        for c in 0..<count {
            if let allowed = allowedClasses, !allowed.contains(c) { continue }
            let s = scores[c * stride] * multiplier
            if s > 0.01 * bestScore && s > 0 { top.append(.init(classIndex: c, score: s)) }
        }
        top.sort { $0.score > $1.score }
        return (bestIndex, bestScore, Array(top.prefix(5)))
    }

    private func darknet(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        var result: [DetectionCandidate] = []
        var classCount = 0
        for output in outputs {
            let shape = output.squeezedShape
            guard shape.count == 2, shape[1] >= 6 else { throw shapeError(outputs) }
            let (rows, columns) = (shape[0], shape[1])
            classCount = columns - 5
            output.scalars.withUnsafeBufferPointer { p in
                for r in 0..<rows {
                    let row = UnsafeBufferPointer(rebasing: p[(r * columns)..<(r * columns + columns)])
                    // Class scores carry objectness (score ≤ objectness): most rows end here.
                    guard row[4] >= threshold,
                        let (c, s, top) = best(UnsafeBufferPointer(rebasing: row[5...]), count: columns - 5)
                    else { continue }
                    let cx = row[0] * inputWidth
                    let cy = row[1] * inputHeight
                    let w = row[2] * inputWidth
                    let h = row[3] * inputHeight
                    result.append(
                        DetectionCandidate(
                            x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2,
                            score: s, classIndex: c, classScores: top))
                }
            }
        }
        return (result, classCount)
    }

    private func yolov5(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let output = outputs.first, output.squeezedShape.count == 2, output.squeezedShape[1] >= 6 else {
            throw shapeError(outputs)
        }
        let (rows, columns) = (output.squeezedShape[0], output.squeezedShape[1])
        var result: [DetectionCandidate] = []
        output.scalars.withUnsafeBufferPointer { p in
            for r in 0..<rows {
                let row = UnsafeBufferPointer(rebasing: p[(r * columns)..<(r * columns + columns)])
                let objectness = row[4]
                guard objectness >= threshold,
                    let (c, s, top) = best(
                        UnsafeBufferPointer(rebasing: row[5...]), count: columns - 5, multiplier: objectness)
                else { continue }
                let (cx, cy, w, h) = (row[0], row[1], row[2], row[3])
                result.append(
                    DetectionCandidate(
                        x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2,
                        score: s, classIndex: c, classScores: top))
            }
        }
        return (result, columns - 5)
    }

    private func yolov8(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let output = outputs.first, output.squeezedShape.count == 2, output.squeezedShape[0] >= 5 else {
            throw shapeError(outputs)
        }
        let (channels, anchors) = (output.squeezedShape[0], output.squeezedShape[1])
        let classes = channels - 4
        var result: [DetectionCandidate] = []
        output.scalars.withUnsafeBufferPointer { p in
            for a in 0..<anchors {
                // Class scores of anchor a are at p[(4 + c) * anchors + a].
                let scores = UnsafeBufferPointer(rebasing: p[(4 * anchors + a)...])
                guard let (c, s, top) = best(scores, stride: anchors, count: classes) else { continue }
                let cx = p[a]
                let cy = p[anchors + a]
                let w = p[2 * anchors + a]
                let h = p[3 * anchors + a]
                result.append(
                    DetectionCandidate(
                        x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2,
                        score: s, classIndex: c, classScores: top))
            }
        }
        return (result, classes)
    }

    private func endToEnd(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let output = outputs.first else { throw shapeError(outputs) }
        let shape = output.squeezedShape
        guard shape.count == 2 || (shape.count == 1 && (shape[0] == 6 || shape[0] == 7)) else {
            throw shapeError(outputs)
        }
        let columns = shape.count == 2 ? shape[1] : shape[0]
        guard columns == 6 || columns == 7 else { throw shapeError(outputs) }
        let rows = output.count / columns
        var result: [DetectionCandidate] = []
        for r in 0..<rows {
            let v = Array(output.scalars[(r * columns)..<(r * columns + columns)])
            let (x1, y1, x2, y2, score, cls): (Float, Float, Float, Float, Float, Int) =
                columns == 6
                ? (v[0], v[1], v[2], v[3], v[4], Int(v[5])) : (v[1], v[2], v[3], v[4], v[6], Int(v[5]))
            guard score >= threshold, allowedClasses?.contains(cls) ?? true else { continue }
            // Boxes given normalised (all ≤ 1.5) are scaled to input pixels.
            let normalised = max(x1, y1, x2, y2) <= 1.5
            let sx = normalised ? inputWidth : 1
            let sy = normalised ? inputHeight : 1
            result.append(
                DetectionCandidate(x1: x1 * sx, y1: y1 * sy, x2: x2 * sx, y2: y2 * sy, score: score, classIndex: cls))
        }
        return (result, 0)
    }

    /// Core ML NMS outputs: `confidence` `[M, C]` and `coordinates` `[M, 4]` (normalised centre x, y, width,
    /// height); the names are Core ML's defaults, else the `[M, 4]` output is the coordinates.
    private func coreML(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard outputs.count >= 2 else { throw shapeError(outputs) }
        let coordinates =
            outputs.first { $0.name == "coordinates" } ?? outputs.first { $0.shape.last == 4 && $0.shape.count == 2 }
        guard let coordinates,
            let confidence = outputs.first(where: { $0.name != coordinates.name && $0.shape.count == 2 }),
            coordinates.shape.count == 2, coordinates.shape[1] == 4, confidence.shape[0] == coordinates.shape[0]
        else {
            throw shapeError(outputs)
        }
        let rows = coordinates.shape[0]
        let classes = confidence.shape[1]
        guard classes > 0 else { return ([], 0) }
        var result: [DetectionCandidate] = []
        let box = coordinates.scalars
        confidence.scalars.withUnsafeBufferPointer { p in
            for r in 0..<rows {
                guard let (c, s, top) = best(UnsafeBufferPointer(rebasing: p[(r * classes)...]), count: classes),
                    s >= threshold
                else { continue }
                let cx = box[r * 4] * inputWidth
                let cy = box[r * 4 + 1] * inputHeight
                let w = box[r * 4 + 2] * inputWidth
                let h = box[r * 4 + 3] * inputHeight
                result.append(
                    DetectionCandidate(
                        x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2,
                        score: s, classIndex: c, classScores: top.filter { $0.score > 0 }))
            }
        }
        return (result, classes)
    }

    /// The boxes (`[N, 4]`) and scores (`[N, C]`) of an SSD's two outputs, in either order.
    static func ssdPair(_ outputs: [Tensor]) -> (boxes: Tensor, scores: Tensor)? {
        guard outputs.count == 2 else { return nil }
        let (a, b) = (outputs[0], outputs[1])
        let (sa, sb) = (a.squeezedShape, b.squeezedShape)
        guard sa.count == 2, sb.count == 2, sa[0] == sb[0] else { return nil }
        if sa[1] == 4 { return (a, b) }
        if sb[1] == 4 { return (b, a) }
        return nil
    }

    private func ssd(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let (boxes, scores) = Self.ssdPair(outputs) else { throw shapeError(outputs) }
        let n = boxes.squeezedShape[0]
        let columns = scores.squeezedShape[1]
        let first = backgroundColumn && columns > 1 ? 1 : 0
        let classes = columns - first
        let normalised = (boxes.scalars.max() ?? 0) <= 1.5
        let sx = normalised ? inputWidth : 1
        let sy = normalised ? inputHeight : 1
        var result: [DetectionCandidate] = []
        scores.scalars.withUnsafeBufferPointer { p in
            for i in 0..<n {
                guard let (c, s, top) = best(UnsafeBufferPointer(rebasing: p[(i * columns + first)...]), count: classes)
                else { continue }
                let b = boxes.scalars[(i * 4)..<(i * 4 + 4)].map { $0 }
                result.append(
                    DetectionCandidate(
                        x1: b[0] * sx, y1: b[1] * sy, x2: b[2] * sx, y2: b[3] * sy,
                        score: s, classIndex: c, classScores: top))
            }
        }
        return (result, classes)
    }

    /// `[1, 1, N, 7]`: image, label, confidence, x1, y1, x2, y2 (normalised). Label 0 (background) is
    /// skipped; class index = label − 1 unless `backgroundColumn` says the labels include the background.
    private func detectionOutput(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let output = outputs.first, output.shape.count == 4, output.shape[3] == 7 else {
            throw shapeError(outputs)
        }
        let rows = output.count / 7
        var result: [DetectionCandidate] = []
        var classCount = 0
        let v = output.scalars
        for r in 0..<rows {
            let label = Int(v[r * 7 + 1])
            let score = v[r * 7 + 2]
            guard label >= 1 else { continue }  // background, or the -1 padding rows of some exports
            let cls = label - 1
            classCount = max(classCount, cls + 1)
            guard score >= threshold, allowedClasses?.contains(cls) ?? true else { continue }
            result.append(
                DetectionCandidate(
                    x1: v[r * 7 + 3] * inputWidth, y1: v[r * 7 + 4] * inputHeight,
                    x2: v[r * 7 + 5] * inputWidth, y2: v[r * 7 + 6] * inputHeight,
                    score: score, classIndex: cls))
        }
        return (result, 0)  // the class count is not known from the rows: labels are not checked against it
    }

    /// YuNet's per-stride cls/obj/bbox outputs (see `DetectionOutputFormat.yunet`).
    private func yunet(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        let byName = Dictionary(outputs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [DetectionCandidate] = []
        for stride in [8, 16, 32] {
            guard let cls = byName["cls_\(stride)"], let obj = byName["obj_\(stride)"],
                let bbox = byName["bbox_\(stride)"]
            else {
                throw shapeError(outputs)
            }
            let cols = Int(inputWidth) / stride
            let rows = Int(inputHeight) / stride
            guard cols > 0, rows > 0, cls.count == rows * cols, obj.count == rows * cols, bbox.count == 4 * rows * cols
            else {
                throw shapeError(outputs)
            }
            guard allowedClasses?.contains(0) ?? true else { continue }
            let s = Float(stride)
            for i in 0..<(rows * cols) {
                let score = (max(0, min(1, cls.scalars[i])) * max(0, min(1, obj.scalars[i]))).squareRoot()
                guard score >= threshold else { continue }
                let (row, col) = (i / cols, i % cols)
                let b = bbox.scalars[(4 * i)..<(4 * i + 4)].map { $0 }
                let cx = (Float(col) + b[0]) * s
                let cy = (Float(row) + b[1]) * s
                let w = exp(b[2]) * s
                let h = exp(b[3]) * s
                result.append(
                    DetectionCandidate(
                        x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2,
                        score: score, classIndex: 0))
            }
        }
        return (result, 1)
    }

    /// FastestDet's `[1, 5 + C, H, W]` grid (see `DetectionOutputFormat.fastestDet`).
    private func fastestDet(_ outputs: [Tensor]) throws(VisionError) -> ([DetectionCandidate], Int) {
        guard let output = outputs.first, output.shape.count == 4, output.shape[1] > 5 else {
            throw shapeError(outputs)
        }
        let (channels, rows, cols) = (output.shape[1], output.shape[2], output.shape[3])
        let classes = channels - 5
        let plane = rows * cols
        var result: [DetectionCandidate] = []
        output.scalars.withUnsafeBufferPointer { p in
            for i in 0..<plane {
                let objectness = p[i]
                guard objectness > 0 else { continue }
                // Class scores of cell i are at p[(5 + c) * plane + i]; score = obj^0.6 * cls^0.4.
                guard
                    let (c, _, _) = best(
                        UnsafeBufferPointer(rebasing: p[(5 * plane + i)...]), stride: plane, count: classes,
                        multiplier: 1, minimum: 0)
                else { continue }
                let score = pow(objectness, 0.6) * pow(max(0, p[(5 + c) * plane + i]), 0.4)
                guard score >= threshold else { continue }
                let (row, col) = (i / cols, i % cols)
                let cx = (Float(col) + tanh(p[plane + i])) / Float(cols)
                let cy = (Float(row) + tanh(p[2 * plane + i])) / Float(rows)
                let w = 1 / (1 + exp(-p[3 * plane + i]))
                let h = 1 / (1 + exp(-p[4 * plane + i]))
                result.append(
                    DetectionCandidate(
                        x1: (cx - w / 2) * inputWidth, y1: (cy - h / 2) * inputHeight,
                        x2: (cx + w / 2) * inputWidth, y2: (cy + h / 2) * inputHeight,
                        score: score, classIndex: c))
            }
        }
        return (result, classes)
    }
}
