import Foundation
import Testing
@testable import OpenVision
import OpenVisionTestSupport

/// The MediaPipe calculators behind hand pose and BlazeFace, without models: SSD anchors, box decoding,
/// weighted NMS, the palm → hand region transformation, and the region sampling.
@Suite struct MediaPipeGeometryTests {
    /// Anchor counts from the graphs' `num_boxes` (palm_detection_cpu.pbtxt 2016, face_detection_short_range.pbtxt
    /// 896, face_detection_full_range.pbtxt 2304) and the grid: 24² × 2 + 12² × 6 for 192 px with strides 8, 16, 16, 16.
    @Test func anchorCountsAndCentres() {
        let palm = MediaPipeAnchors(.palmDetection).anchors
        #expect(palm.count == 2016)
        let short = MediaPipeAnchors(.faceShortRange).anchors
        #expect(short.count == 896)
        // Short range, 128 px: stride 8 is 16 cells (two anchors each, 512), then stride 16 is 8 cells (six each).
        #expect(short[0].xCenter == 0.5 / 16 && short[2].xCenter == 1.5 / 16 && short[512].xCenter == 0.5 / 8)
        #expect(short[895].xCenter == 7.5 / 8 && short[895].yCenter == 7.5 / 8)
        let full = MediaPipeAnchors(.faceFullRange).anchors
        #expect(full.count == 2304)
        // Stride 8 on 192 px: 24 cells, centres at (i + 0.5) / 24, two anchors per cell.
        #expect(palm[0].xCenter == 0.5 / 24 && palm[0].yCenter == 0.5 / 24 && palm[1].xCenter == palm[0].xCenter)
        #expect(palm[2].xCenter == 1.5 / 24 && palm[2].yCenter == 0.5 / 24)
        #expect(abs(palm[2 * 24].yCenter - 1.5 / 24) < 1e-12)
        // Stride 16 (three layers merged): 12 cells, six anchors per cell, from index 1152.
        #expect(palm[1152].xCenter == 0.5 / 12 && (1152..<1158).allSatisfy { palm[$0].xCenter == palm[1152].xCenter })
        #expect(palm[1158].xCenter == 1.5 / 12)
        #expect(palm[2015].xCenter == 11.5 / 12 && palm[2015].yCenter == 11.5 / 12)
        // Full range: one anchor per cell of a 48 × 48 grid.
        #expect(full[1].xCenter == 1.5 / 48 && full[48].yCenter == 1.5 / 48)
        // fixed_anchor_size: every anchor is 1 × 1.
        #expect((palm + short + full).allSatisfy { $0.width == 1 && $0.height == 1 })
    }

    /// One anchor with score logit 2 (sigmoid 0.8808) and raw box (19.2, -9.6, 38.4, 57.6) px on a 192 px input:
    /// centre = anchor + (0.1, -0.05), size 0.2 × 0.3; a keypoint at raw (9.6, 0) is anchor + (0.05, 0).
    @Test func decodesABoxAroundItsAnchor() throws {
        let decoder = SSDDecoder(anchors: .palmDetection, keypointCount: 7, minimumScore: 0.5)
        let n = decoder.anchors.count
        var boxes = [Float](repeating: 0, count: n * 18)
        var scores = [Float](repeating: -100, count: n)
        let i = 1200
        scores[i] = 2
        boxes[i * 18 + 0] = 19.2; boxes[i * 18 + 1] = -9.6; boxes[i * 18 + 2] = 38.4; boxes[i * 18 + 3] = 57.6
        boxes[i * 18 + 4] = 9.6
        scores[7] = 1000  // clipped to 100: still a detection, score 1
        let detections = try decoder.decode(boxes: Tensor(name: "b", shape: [1, n, 18], scalars: boxes),
                                            scores: Tensor(name: "s", shape: [1, n, 1], scalars: scores))
        #expect(detections.count == 2)
        let d = try #require(detections.first { abs($0.score - 0.880797) < 1e-5 })
        let a = decoder.anchors[i]
        #expect(abs(d.xmin - (a.xCenter + 0.1 - 0.1)) < 1e-6 && abs(d.ymin - (a.yCenter - 0.05 - 0.15)) < 1e-6)
        #expect(abs(d.width - 0.2) < 1e-6 && abs(d.height - 0.3) < 1e-6)
        #expect(abs(d.keypoints[0].x - (a.xCenter + 0.05)) < 1e-6 && abs(d.keypoints[0].y - a.yCenter) < 1e-6)
        #expect(d.keypoints.count == 7)
        // Tensors that do not fit the anchors are a clear error.
        #expect(throws: VisionError.self) {
            try decoder.decode(boxes: Tensor(name: "b", shape: [1, 10, 18], scalars: .init(repeating: 0, count: 180)),
                               scores: Tensor(name: "s", shape: [1, 10, 1], scalars: .init(repeating: 0, count: 10)))
        }
    }

    /// Weighted NMS: A (0.1, 0.1, 0.2, 0.2; 0.9) and B (0.12, 0.1, 0.2, 0.2; 0.6) overlap by IoU 0.036 / 0.044 = 0.82
    /// and merge: xmin = (0.1 × 0.9 + 0.12 × 0.6) / 1.5 = 0.108, keypoint x = (0.2 × 0.9 + 0.26 × 0.6) / 1.5 = 0.224,
    /// score 0.9 (the best's); C far away stays alone.
    @Test func weightedNonMaxSuppressionAveragesOverlaps() {
        let decoder = SSDDecoder(anchors: .faceShortRange, keypointCount: 1, minimumScore: 0.5)
        let a = SSDDetection(xmin: 0.1, ymin: 0.1, width: 0.2, height: 0.2, score: 0.9, keypoints: [.init(x: 0.2, y: 0.2)])
        let b = SSDDetection(xmin: 0.12, ymin: 0.1, width: 0.2, height: 0.2, score: 0.6, keypoints: [.init(x: 0.26, y: 0.2)])
        let c = SSDDetection(xmin: 0.6, ymin: 0.6, width: 0.1, height: 0.1, score: 0.7, keypoints: [.init(x: 0.65, y: 0.65)])
        let out = decoder.weightedNonMaxSuppression([b, c, a])
        #expect(out.count == 2)
        #expect(out[0].score == 0.9 && abs(out[0].xmin - 0.108) < 1e-9 && abs(out[0].width - 0.2) < 1e-9)
        #expect(abs(out[0].keypoints[0].x - 0.224) < 1e-9)
        #expect(out[1].score == 0.7 && abs(out[1].xmin - 0.6) < 1e-12 && abs(out[1].width - 0.1) < 1e-12)
    }

    /// `PalmDetectionDetectionToRoi` on a 200 × 100 image: a 0.1 × 0.1 palm box at the centre.
    /// Fingers up (wrist below the middle MCP): rotation 0, centre shifted up by half the box (0.45), squared on the
    /// long side in pixels (20 px: 0.1 × 0.2 normalised), × 2.6 → 0.26 × 0.52.
    /// Fingers right: rotation π/2, the shift goes right: x + (100 × 0.1 × 0.5) / 200 = 0.525.
    @Test func handRegionFromPalm() {
        var palm = SSDDetection(xmin: 0.45, ymin: 0.45, width: 0.1, height: 0.1, score: 0.9,
                                keypoints: Array(repeating: .init(x: 0.5, y: 0.5), count: 7))
        palm.keypoints[0] = .init(x: 0.5, y: 0.55)
        palm.keypoints[2] = .init(x: 0.5, y: 0.45)
        let up = HandPosePipeline.handRegion(palm: palm, imageWidth: 200, imageHeight: 100)
        #expect(abs(up.rotation) < 1e-12 && abs(up.centerX - 0.5) < 1e-12 && abs(up.centerY - 0.45) < 1e-12)
        #expect(abs(up.width - 0.26) < 1e-12 && abs(up.height - 0.52) < 1e-12)

        palm.keypoints[0] = .init(x: 0.45, y: 0.5)
        palm.keypoints[2] = .init(x: 0.55, y: 0.5)
        let right = HandPosePipeline.handRegion(palm: palm, imageWidth: 200, imageHeight: 100)
        #expect(abs(right.rotation - .pi / 2) < 1e-12)
        #expect(abs(right.centerX - 0.525) < 1e-12 && abs(right.centerY - 0.5) < 1e-12)
        // The model input's top edge (the fingers' side) maps to the region's right in the image.
        let sampling = RegionSampling(region: right, imageWidth: 200, imageHeight: 100, inputWidth: 224, inputHeight: 224)
        let top = sampling.imagePoint(x: 0.5, y: 0)
        #expect(top.0 > right.centerX + 0.05 && abs(top.1 - 0.5) < 1e-9)
        // And the input-to-image matrix agrees with imagePoint at a corner.
        let m = sampling.inputToImage
        let corner = (m[0] * 224 + m[1] * 0 + m[2], m[3] * 224 + m[4] * 0 + m[5])
        let expected = sampling.imagePoint(x: 1, y: 0)
        #expect(abs(corner.0 / 200 - expected.0) < 1e-9 && abs(corner.1 / 100 - expected.1) < 1e-9)
    }

    /// `AssociationNormRectCalculator`: a later region overlapping an earlier one by IoU > 0.5 replaces it.
    @Test func associationKeepsTheLaterOfOverlappingRegions() {
        let a = RotatedRegion(centerX: 0.3, centerY: 0.3, width: 0.2, height: 0.2)
        let b = RotatedRegion(centerX: 0.31, centerY: 0.3, width: 0.2, height: 0.2)
        let c = RotatedRegion(centerX: 0.7, centerY: 0.7, width: 0.2, height: 0.2)
        #expect(HandPosePipeline.associate([a, c, b]) == [c, b])
    }

    /// Letterboxing a 40 × 20 gray (200) image into 16 × 16 with values in [-1, 1] and a zero border: rows 0...3 and
    /// 12...15 are padding (-1), the middle rows 200 × 2/255 − 1 = 0.5686.
    @Test func letterboxSamplingPadsWithZero() throws {
        let image = try Fixtures.canvas(width: 40, height: 20, gray: 200).makeImage()
        let sampling = RegionSampling(region: .fullImage, imageWidth: 40, imageHeight: 20, inputWidth: 16, inputHeight: 16)
        #expect(sampling.width == 40 && sampling.height == 40)
        let model = try StubModel.make(width: 16, height: 16)
        let tensor = try MediaPipeInput.tensor(for: model, image: image, sampling: sampling, range: -1...1, borderReplicate: false)
        #expect(tensor.shape == [1, 16, 16, 3])
        func value(_ row: Int, _ column: Int) -> Float { tensor.scalars[(row * 16 + column) * 3] }
        #expect(value(0, 8) == -1 && value(2, 3) == -1 && value(14, 8) == -1)
        #expect(abs(value(8, 8) - (200 * 2 / 255 - 1)) < 1e-4 && abs(value(6, 1) - (200 * 2 / 255 - 1)) < 1e-4)
    }
}

extension MediaPipeGeometryTests {
    /// A model whose input is not an image is `invalidModel`, naming the model and its input.
    @Test func modelWithoutImageInputIsInvalid() throws {
        let model = try VisionModel(backend: StubModel.Backend(width: 16, height: 16, shape: [1, 10]), url: URL(fileURLWithPath: "/flat.tflite"))
        do {
            _ = try MediaPipeInput.inputGeometry(of: model)
            Issue.record("expected invalidModel")
        } catch {
            #expect(error.code == .invalidModel && error.message.contains("flat.tflite") && error.message.contains("[1×10]"), "\(error.message)")
        }
    }
}

/// A model description without a model file: an NHWC image input of the given size, for the samplers.
enum StubModel {
    struct Backend: InferenceBackend {
        var width: Int, height: Int
        var shape: [Int]? = nil
        var name: String { "stub" }
        var inputs: [TensorDescription] { [TensorDescription(name: "input", shape: shape ?? [1, height, width, 3])] }
        var outputs: [TensorDescription] { [TensorDescription(name: "out", shape: [1, 1])] }
        func metadata(_ key: String) -> String? { nil }
        func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] { [Tensor(name: "out", shape: [1, 1], scalars: [0])] }
    }

    static func make(width: Int, height: Int) throws -> VisionModel {
        try VisionModel(backend: Backend(width: width, height: height), url: URL(fileURLWithPath: "/stub.tflite"))
    }
}
