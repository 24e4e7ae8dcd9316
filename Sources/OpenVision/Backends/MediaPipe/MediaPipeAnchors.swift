import Foundation

/// SSD anchors as MediaPipe's `SsdAnchorsCalculator` generates them (mediapipe/calculators/tflite/
/// ssd_anchors_calculator.cc): one anchor per feature-map cell and aspect ratio (plus an interpolated
/// scale), layers of equal stride merged into one feature map. Centres and sizes are normalised to the
/// model input (0...1, top-left origin).
struct MediaPipeAnchors: Sendable, Hashable {
    /// `SsdAnchorsCalculatorOptions`; defaults are the proto's.
    struct Options: Sendable, Hashable {
        var numLayers: Int
        var minScale: Double
        var maxScale: Double
        var inputWidth: Int
        var inputHeight: Int
        var anchorOffsetX = 0.5
        var anchorOffsetY = 0.5
        var strides: [Int]
        var aspectRatios: [Double] = [1]
        var fixedAnchorSize = false
        var interpolatedScaleAspectRatio = 1.0
        var reduceBoxesInLowestLayer = false

        /// pose_detection_cpu.pbtxt: 224 × 224, five layers of strides 8, 16, 32, 32, 32 (2254 anchors).
        static let poseDetection = Options(
            numLayers: 5, minScale: 0.1484375, maxScale: 0.75, inputWidth: 224, inputHeight: 224,
            strides: [8, 16, 32, 32, 32], fixedAnchorSize: true)
        /// palm_detection_cpu.pbtxt (palm_detection_{lite,full}.tflite): 192 × 192, strides 8, 16, 16, 16 (2016 anchors).
        static let palmDetection = Options(
            numLayers: 4, minScale: 0.1484375, maxScale: 0.75, inputWidth: 192, inputHeight: 192,
            strides: [8, 16, 16, 16], fixedAnchorSize: true)
        /// face_detection_short_range.pbtxt: 128 × 128, strides 8, 16, 16, 16 (896 anchors).
        static let faceShortRange = Options(
            numLayers: 4, minScale: 0.1484375, maxScale: 0.75, inputWidth: 128, inputHeight: 128,
            strides: [8, 16, 16, 16], fixedAnchorSize: true)
        /// face_detection_full_range.pbtxt (face_detection_full_range_sparse.tflite): 192 × 192, one layer of
        /// stride 4, no interpolated anchor (2304 anchors).
        static let faceFullRange = Options(
            numLayers: 1, minScale: 0.1484375, maxScale: 0.75, inputWidth: 192, inputHeight: 192,
            strides: [4], fixedAnchorSize: true, interpolatedScaleAspectRatio: 0)
    }

    struct Anchor: Sendable, Hashable {
        var xCenter: Double
        var yCenter: Double
        var width: Double
        var height: Double
    }

    let anchors: [Anchor]

    init(_ o: Options) {
        func scale(_ index: Int, _ count: Int) -> Double {
            count == 1
                ? (o.minScale + o.maxScale) / 2
                : o.minScale + (o.maxScale - o.minScale) * Double(index) / Double(count - 1)
        }
        var result: [Anchor] = []
        var layer = 0
        while layer < o.numLayers {
            var ratios: [Double] = []
            var scales: [Double] = []
            var last = layer
            while last < o.strides.count && o.strides[last] == o.strides[layer] {
                let s = scale(last, o.strides.count)
                if last == 0 && o.reduceBoxesInLowestLayer {
                    ratios += [1, 2, 0.5]
                    scales += [0.1, s, s]
                } else {
                    for r in o.aspectRatios {
                        ratios.append(r)
                        scales.append(s)
                    }
                    if o.interpolatedScaleAspectRatio > 0 {
                        let next = last == o.strides.count - 1 ? 1 : scale(last + 1, o.strides.count)
                        scales.append((s * next).squareRoot())
                        ratios.append(o.interpolatedScaleAspectRatio)
                    }
                }
                last += 1
            }
            let stride = Double(o.strides[layer])
            let rows = Int((Double(o.inputHeight) / stride).rounded(.up))
            let cols = Int((Double(o.inputWidth) / stride).rounded(.up))
            for y in 0..<rows {
                for x in 0..<cols {
                    for i in ratios.indices {
                        let r = ratios[i].squareRoot()
                        result.append(
                            Anchor(
                                xCenter: (Double(x) + o.anchorOffsetX) / Double(cols),
                                yCenter: (Double(y) + o.anchorOffsetY) / Double(rows),
                                width: o.fixedAnchorSize ? 1 : scales[i] * r,
                                height: o.fixedAnchorSize ? 1 : scales[i] / r))
                    }
                }
            }
            layer = last
        }
        anchors = result
    }
}
