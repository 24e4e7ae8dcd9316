import Foundation

/// `RefineLandmarksFromHeatmapCalculator`: each landmark (normalised to the crop) moves to the
/// sigmoid-weighted mean position of the heat map in a `kernelSize` window around it, when the window's
/// largest confidence reaches `minimumConfidence`. `heatmap` is `rows × columns × channels` (HWC, one
/// channel per landmark, raw logits).
enum HeatmapRefinement {
    static func refine(
        _ points: inout [(x: Double, y: Double)], heatmap: [Float], rows: Int, columns: Int, channels: Int,
        kernelSize: Int = 7, minimumConfidence: Float = 0.5
    ) {
        guard channels == points.count, heatmap.count == rows * columns * channels else { return }
        let offset = (kernelSize - 1) / 2
        for i in points.indices {
            // As MediaPipe: truncation toward zero, and its bounds check (which tests the column twice).
            let x = points[i].x * Double(columns)
            let y = points[i].y * Double(rows)
            guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { continue }
            let col = Int(x)
            let row = Int(y)
            if col < 0 || col >= columns || row < 0 { continue }
            var sum: Float = 0
            var wc: Float = 0
            var wr: Float = 0
            var best: Float = 0
            for r in max(0, row - offset)..<max(max(0, row - offset), min(rows, row + offset + 1)) {
                for c in max(0, col - offset)..<min(columns, col + offset + 1) {
                    let v = 1 / (1 + exp(-heatmap[(r * columns + c) * channels + i]))
                    sum += v
                    best = max(best, v)
                    wc += Float(c) * v
                    wr += Float(r) * v
                }
            }
            if best >= minimumConfidence && sum > 0 {
                points[i] = (Double(wc / Float(columns) / sum), Double(wr / Float(rows) / sum))
            }
        }
    }
}
