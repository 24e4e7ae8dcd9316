import Foundation

/// MediaPipe's `SsdAnchorsCalculator` (mediapipe/calculators/tflite/ssd_anchors_calculator.cc): the anchor
/// centres of a BlazeFace / palm-detection SSD head, in the order the model's rows use. Only the
/// `fixed_anchor_size` variant these models use is implemented (every anchor is 1 × 1).
struct SSDAnchorOptions: Sendable, Hashable {
    var inputWidth: Int
    var inputHeight: Int
    var minScale: Double
    var maxScale: Double
    var strides: [Int]
    var aspectRatios: [Double] = [1.0]
    /// Adds one anchor per layer at √(scale × next scale) with this aspect ratio; 0 adds none.
    var interpolatedScaleAspectRatio: Double = 1.0
    var anchorOffsetX: Double = 0.5
    var anchorOffsetY: Double = 0.5

    /// palm_detection_cpu.pbtxt (palm_detection_{lite,full}.tflite, 192 × 192, 2016 anchors).
    static let palmDetection = SSDAnchorOptions(inputWidth: 192, inputHeight: 192, minScale: 0.1484375, maxScale: 0.75,
                                                strides: [8, 16, 16, 16])
    /// face_detection_short_range.pbtxt (128 × 128, 896 anchors).
    static let faceShortRange = SSDAnchorOptions(inputWidth: 128, inputHeight: 128, minScale: 0.1484375, maxScale: 0.75,
                                                 strides: [8, 16, 16, 16])
    /// face_detection_full_range.pbtxt (face_detection_full_range_sparse.tflite, 192 × 192, 2304 anchors).
    static let faceFullRange = SSDAnchorOptions(inputWidth: 192, inputHeight: 192, minScale: 0.1484375, maxScale: 0.75,
                                                strides: [4], interpolatedScaleAspectRatio: 0)

    /// The anchors' centres (x, y), normalised to the input (0...1, top-left origin).
    func anchors() -> [(x: Double, y: Double)] {
        var result: [(x: Double, y: Double)] = []
        var layer = 0
        while layer < strides.count {
            // Layers of the same stride share one grid; their anchors interleave per cell.
            var perCell = 0
            var last = layer
            while last < strides.count && strides[last] == strides[layer] {
                perCell += aspectRatios.count + (interpolatedScaleAspectRatio > 0 ? 1 : 0)
                last += 1
            }
            let stride = Double(strides[layer])
            let rows = Int((Double(inputHeight) / stride).rounded(.up))
            let columns = Int((Double(inputWidth) / stride).rounded(.up))
            for y in 0..<rows {
                for x in 0..<columns {
                    let cx = (Double(x) + anchorOffsetX) / Double(columns)
                    let cy = (Double(y) + anchorOffsetY) / Double(rows)
                    for _ in 0..<perCell { result.append((cx, cy)) }
                }
            }
            layer = last
        }
        return result
    }
}
