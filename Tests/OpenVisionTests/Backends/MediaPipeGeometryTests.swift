import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// The MediaPipe graph arithmetic the hand, BlazeFace, body-pose and segmentation pipelines follow, one stack for
/// all of them (Backends/MediaPipe): anchors, SSD decoding, weighted NMS, rotated regions (palm → hand, body),
/// letterboxed sampling, landmark projection, heat-map refinement, the mask's resize and refinement; checked
/// without a model.
@Suite struct MediaPipeGeometryTests {
    /// pose_detection_cpu.pbtxt's anchors: 28² × 2 (stride 8) + 14² × 2 (stride 16) + 7² × 6 (three layers of
    /// stride 32 merged) = 2254, the model's box count; centres at cell centres, fixed size 1.
    @Test func poseDetectionAnchors() {
        let anchors = MediaPipeAnchors(.poseDetection).anchors
        func at(_ i: Int, _ x: Double, _ y: Double) -> Bool {
            abs(anchors[i].xCenter - x) < 1e-12 && abs(anchors[i].yCenter - y) < 1e-12
        }
        let stride16 = 28 * 28 * 2
        let stride32 = stride16 + 14 * 14 * 2
        #expect(anchors.count == 2254)
        #expect(anchors.allSatisfy { $0.width == 1 && $0.height == 1 })
        #expect(at(0, 0.5 / 28, 0.5 / 28))
        #expect(anchors[0] == anchors[1])  // two anchors per cell
        #expect(at(2, 1.5 / 28, 0.5 / 28))  // then the next column
        #expect(at(stride16, 0.5 / 14, 0.5 / 14))
        #expect(at(stride32, 0.5 / 7, 0.5 / 7))
        #expect(anchors[stride32 + 5] == anchors[stride32])  // six per cell
        #expect(at(2253, 6.5 / 7, 6.5 / 7))
    }

    /// Anchors with sizes (not fixed): the interpolated scale between layers, as SsdAnchorsCalculator.
    @Test func anchorSizesFollowTheScales() {
        var o = MediaPipeAnchors.Options.poseDetection
        o.fixedAnchorSize = false
        let anchors = MediaPipeAnchors(o).anchors
        // Layer 0: scale 0.1484375; the interpolated one sqrt(0.1484375 × scale(1)), scale(1) = 0.1484375 + 0.6015625 / 4.
        #expect(abs(anchors[0].width - 0.1484375) < 1e-12)
        #expect(abs(anchors[1].width - (0.1484375 * (0.1484375 + 0.6015625 / 4)).squareRoot()) < 1e-12)
        // The last layer's interpolated scale uses 1: sqrt(0.75 × 1).
        #expect(abs(anchors.last!.width - 0.75.squareRoot()) < 1e-12)
    }

    /// One anchor's box and keypoints: offsets / 224 × anchor size + anchor centre (x first, reverse order).
    @Test func decodesBoxesAndKeypoints() throws {
        let anchors = [
            MediaPipeAnchors.Anchor(xCenter: 0.25, yCenter: 0.5, width: 1, height: 1),
            MediaPipeAnchors.Anchor(xCenter: 0.75, yCenter: 0.5, width: 1, height: 1),
        ]
        var boxes = [Float](repeating: 0, count: 24)
        boxes[0...11] = [22.4, -11.2, 44.8, 67.2, 0, 0, 11.2, 22.4, 0, 0, 0, 0]
        let detections = try MediaPipeDetection.decode(
            boxes: boxes, scores: [2, -3], anchors: anchors, options: .poseDetection)
        #expect(detections.count == 1)  // sigmoid(-3) = 0.047 < 0.5
        let d = try #require(detections.first)
        #expect(abs(Double(d.score) - 1 / (1 + exp(-2))) < 1e-6)
        #expect(abs(d.xMin - (0.35 - 0.1)) < 1e-6 && abs(d.xMax - (0.35 + 0.1)) < 1e-6)
        #expect(abs(d.yMin - (0.45 - 0.15)) < 1e-6 && abs(d.yMax - (0.45 + 0.15)) < 1e-6)
        #expect(abs(d.keypoints[1].x - 0.3) < 1e-6 && abs(d.keypoints[1].y - 0.6) < 1e-6)
        #expect(throws: VisionError.self) {
            _ = try MediaPipeDetection.decode(
                boxes: [1, 2], scores: [0, 0], anchors: anchors, options: .poseDetection)
        }
    }

    /// Weighted NMS: overlapping detections merge into their score-weighted mean; a separate one stays.
    @Test func weightedNonMaxSuppression() {
        let a = MediaPipeDetection(xMin: 0, yMin: 0, xMax: 1, yMax: 1, keypoints: [(0, 0)], score: 0.9)
        let b = MediaPipeDetection(xMin: 0.1, yMin: 0, xMax: 1.1, yMax: 1, keypoints: [(0.3, 0.3)], score: 0.6)
        let c = MediaPipeDetection(xMin: 5, yMin: 5, xMax: 6, yMax: 6, keypoints: [(5, 5)], score: 0.7)
        let kept = MediaPipeDetection.weightedNonMaxSuppression([b, c, a], threshold: 0.3)
        #expect(kept.count == 2)
        #expect(kept[0].score == 0.9 && kept[1].score == 0.7)
        // (0 × 0.9 + 0.1 × 0.6) / 1.5 = 0.04, (1 × 0.9 + 1.1 × 0.6) / 1.5 = 1.04 (scores are Float32: 1e-6)
        #expect(abs(kept[0].xMin - 0.04) < 1e-6 && abs(kept[0].xMax - 1.04) < 1e-6)
        #expect(abs(kept[0].keypoints[0].x - 0.12) < 1e-6)
        #expect(kept[1].xMin == 5)
    }

    /// The body region: centred on keypoint 0, 2.5 × the keypoint distance on a side, turned so that
    /// keypoint 1 is "up" in the crop (MediaPipe's target angle 90°).
    @Test func bodyRegionFromKeypoints() {
        let upright = MediaPipeRegion.body(center: (100, 200), scalePoint: (100, 120))
        #expect(upright.width == 200 && upright.height == 200 && abs(upright.rotation) < 1e-12)
        let lying = MediaPipeRegion.body(center: (100, 200), scalePoint: (180, 200))
        #expect(abs(lying.rotation - .pi / 2) < 1e-12)
        // The crop's top-centre is towards keypoint 1.
        let top = lying.project(x: 0.5, y: 0)
        #expect(abs(top.x - 200) < 1e-9 && abs(top.y - 200) < 1e-9)
        let headDown = MediaPipeRegion.body(center: (100, 200), scalePoint: (100, 280))
        #expect(abs(abs(headDown.rotation) - .pi) < 1e-12)
    }

    /// The crop transform and the landmark projection are inverses, for any rotation.
    @Test(arguments: [0.0, 0.4, -1.2, 2.9])
    func cropTransformInvertsProjection(_ rotation: Double) throws {
        let region = MediaPipeRegion(centerX: 320, centerY: 210, width: 180, height: 180, rotation: rotation)
        let m = region.cropTransform(outputWidth: 256, outputHeight: 256)
        for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.3, 0.8), (0.5, 0.5)] {
            let p = region.project(x: u, y: v)
            let q = try #require(m.apply(to: CGPoint(x: p.x, y: p.y)))
            #expect(abs(Double(q.x) - u * 256) < 1e-6 && abs(Double(q.y) - v * 256) < 1e-6)
        }
    }

    /// Heat-map refinement moves a landmark to the sigmoid-weighted mean of its 7 × 7 window when the
    /// window is confident, and leaves it alone when not.
    @Test func heatmapRefinement() {
        let rows = 64
        let columns = 64
        var heatmap = [Float](repeating: -10, count: rows * columns * 2)
        // Channel 0: two equal peaks at (row 10, columns 20 and 22): the mean is column 21.
        heatmap[(10 * columns + 20) * 2] = 10
        heatmap[(10 * columns + 22) * 2] = 10
        var points: [(x: Double, y: Double)] = [(20.5 / 64, 10.5 / 64), (40.0 / 64, 40.0 / 64)]
        HeatmapRefinement.refine(&points, heatmap: heatmap, rows: rows, columns: columns, channels: 2)
        #expect(abs(points[0].x - 21.0 / 64) < 1e-3 && abs(points[0].y - 10.0 / 64) < 1e-3)
        #expect(points[1].x == 40.0 / 64 && points[1].y == 40.0 / 64)  // channel 1 is flat and unconfident
    }

    /// The mask's resize matches OpenCV's bilinear resize:
    /// `python3 -c "import cv2, numpy as np; print(cv2.resize(np.array([[0,1,4],[2,3,8]], np.float32), (5, 4)).tolist())"`
    @Test func maskResizeMatchesOpenCV() throws {
        let out = try SelfieSegmenter.resizeBilinear([0, 1, 4, 2, 3, 8], width: 3, height: 2, toWidth: 5, toHeight: 4)
        let expected: [Float] = [
            0.0, 0.4, 1.0, 2.8, 4.0, 0.5, 0.9, 1.5, 3.6, 5.0,
            1.5, 1.9, 2.5, 5.2, 7.0, 2.0, 2.4, 3.0, 6.0, 8.0,
        ]
        #expect(zip(out, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "\(out)")
    }

    /// Box means over windows clipped to the image: the sums of
    /// `cv2.boxFilter(np.arange(12, dtype=np.float32).reshape(3, 4), -1, (3, 3), borderType=cv2.BORDER_CONSTANT, normalize=False)`
    /// divided by the number of pixels inside.
    @Test func boxMeanMatchesOpenCVSums() {
        let sums: [Float] = [10, 18, 24, 18, 27, 45, 54, 39, 26, 42, 48, 34]
        let counts: [Float] = [4, 6, 6, 4, 6, 9, 9, 6, 4, 6, 6, 4]
        let out = GuidedFilter.boxMean((0..<12).map(Float.init), 4, 3, 1)
        #expect(zip(out, zip(sums, counts).map { $0 / $1 }).allSatisfy { abs($0 - $1) < 1e-5 }, "\(out)")
    }

    /// The guided filter keeps a step that the guide has, and flattens one it has not.
    @Test func guidedFilterFollowsTheGuide() {
        let w = 40
        let h = 10
        // Guide: a sharp edge at column 20. Input: the same step, blurred over columns 16...24.
        let guide = (0..<(w * h)).map { Float($0 % w >= 20 ? 1 : 0) }
        let input = (0..<(w * h)).map { i -> Float in Float(min(1, max(0, Double(i % w - 16) / 8))) }
        let out = GuidedFilter.filter(input, guide: guide, width: w, height: h, radius: 4, epsilon: 1e-3)
        let row = 5 * w
        #expect(out[row + 18] < 0.35 && out[row + 21] > 0.65, "\(Array(out[row..<(row + w)]))")
        #expect(abs(out[row + 2]) < 0.02 && abs(out[row + 38] - 1) < 0.02)
        // A constant input stays constant.
        let flat = GuidedFilter.filter(
            [Float](repeating: 0.25, count: w * h), guide: guide, width: w, height: h, radius: 4, epsilon: 1e-3)
        #expect(flat.allSatisfy { abs($0 - 0.25) < 1e-4 })
    }

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

    /// A palm head's anchor with score logit 2 (sigmoid 0.8808) and raw box (19.2, -9.6, 38.4, 57.6) px on a 192 px
    /// input: centre = anchor + (0.1, -0.05), size 0.2 × 0.3; a keypoint at raw (9.6, 0) is anchor + (0.05, 0).
    @Test func decodesAPalmBoxAroundItsAnchor() throws {
        let anchors = MediaPipeAnchors(.palmDetection).anchors
        let n = anchors.count
        var boxes = [Float](repeating: 0, count: n * 18)
        var scores = [Float](repeating: -100, count: n)
        let i = 1200
        scores[i] = 2
        boxes[i * 18 + 0] = 19.2
        boxes[i * 18 + 1] = -9.6
        boxes[i * 18 + 2] = 38.4
        boxes[i * 18 + 3] = 57.6
        boxes[i * 18 + 4] = 9.6
        scores[7] = 1000  // clipped to 100: still a detection, score 1
        let options = MediaPipeDetection.DecodeOptions.ssd(inputSize: 192, keypoints: 7, minScore: 0.5)
        let detections = try MediaPipeDetection.decode(boxes: boxes, scores: scores, anchors: anchors, options: options)
        #expect(detections.count == 2)
        let d = try #require(detections.first { abs($0.score - 0.880797) < 1e-5 })
        let a = anchors[i]
        #expect(abs(d.xMin - (a.xCenter + 0.1 - 0.1)) < 1e-6 && abs(d.yMin - (a.yCenter - 0.05 - 0.15)) < 1e-6)
        #expect(abs(d.xMax - d.xMin - 0.2) < 1e-6 && abs(d.yMax - d.yMin - 0.3) < 1e-6)
        #expect(abs(d.keypoints[0].x - (a.xCenter + 0.05)) < 1e-6 && abs(d.keypoints[0].y - a.yCenter) < 1e-6)
        #expect(d.keypoints.count == 7)
        // Tensors that do not fit the anchors are a clear error.
        #expect(throws: VisionError.self) {
            _ = try MediaPipeDetection.decode(
                boxes: .init(repeating: 0, count: 180), scores: .init(repeating: 0, count: 10),
                anchors: anchors, options: options)
        }
    }

    /// A degenerate box (no area) overlaps nothing, not even itself: it is kept alone and the detections after it
    /// are still suppressed and merged as usual (the palm/face NMS used to stop at it); `maximumCount` bounds the output.
    @Test func weightedNonMaxSuppressionKeepsGoingAfterADegenerateBox() {
        let flat = MediaPipeDetection(xMin: 0.5, yMin: 0.5, xMax: 0.5, yMax: 0.5, keypoints: [], score: 0.95)
        let a = MediaPipeDetection(xMin: 0.1, yMin: 0.1, xMax: 0.3, yMax: 0.3, keypoints: [], score: 0.9)
        let b = MediaPipeDetection(xMin: 0.12, yMin: 0.1, xMax: 0.32, yMax: 0.3, keypoints: [], score: 0.6)
        let c = MediaPipeDetection(xMin: 0.6, yMin: 0.6, xMax: 0.7, yMax: 0.7, keypoints: [], score: 0.7)
        let kept = MediaPipeDetection.weightedNonMaxSuppression([b, c, flat, a], threshold: 0.3)
        #expect(kept.map(\.score) == [0.95, 0.9, 0.7])
        // a and b merged: xMin = (0.1 × 0.9 + 0.12 × 0.6) / 1.5 = 0.108
        #expect(abs(kept[1].xMin - 0.108) < 1e-6)
        #expect(
            MediaPipeDetection.weightedNonMaxSuppression([b, c, flat, a], threshold: 0.3, maximumCount: 2).count == 2)
    }

    /// `PalmDetectionDetectionToRoi` on a 200 × 100 image: a 20 × 10 px palm box at the centre.
    /// Fingers up (wrist below the middle MCP): rotation 0, centre shifted up by half the box (45 px), squared on the
    /// long side (20 px), × 2.6 → 52 × 52 px.
    /// Fingers right: rotation π/2, the shift goes right: x + 10 × 0.5 = 105 px.
    @Test func handRegionFromPalm() {
        var palm = MediaPipeDetection(
            xMin: 90, yMin: 45, xMax: 110, yMax: 55, keypoints: Array(repeating: (100, 50), count: 7), score: 0.9)
        palm.keypoints[0] = (100, 55)
        palm.keypoints[2] = (100, 45)
        let up = HandPosePipeline.handRegion(palm: palm)
        #expect(abs(up.rotation) < 1e-12 && abs(up.centerX - 100) < 1e-9 && abs(up.centerY - 45) < 1e-9)
        #expect(abs(up.width - 52) < 1e-9 && abs(up.height - 52) < 1e-9)

        palm.keypoints[0] = (90, 50)
        palm.keypoints[2] = (110, 50)
        let right = HandPosePipeline.handRegion(palm: palm)
        #expect(abs(right.rotation - .pi / 2) < 1e-12)
        #expect(abs(right.centerX - 105) < 1e-9 && abs(right.centerY - 50) < 1e-9)
        // The model input's top edge (the fingers' side) maps to the region's right in the image.
        let top = right.keepingAspectRatio(tensorWidth: 224, tensorHeight: 224).project(x: 0.5, y: 0)
        #expect(top.x > right.centerX + 10 && abs(top.y - 50) < 1e-9)
    }

    /// `AssociationNormRectCalculator`: a later region overlapping an earlier one by IoU > 0.5 replaces it.
    @Test func associationKeepsTheLaterOfOverlappingRegions() {
        let a = MediaPipeRegion(centerX: 60, centerY: 30, width: 40, height: 20, rotation: 0)
        let b = MediaPipeRegion(centerX: 62, centerY: 30, width: 40, height: 20, rotation: 0)
        let c = MediaPipeRegion(centerX: 140, centerY: 70, width: 40, height: 20, rotation: 0)
        #expect(HandPosePipeline.associate([a, c, b]) == [c, b])
    }

    /// Letterboxing a 40 × 20 gray (200) image into 16 × 16 with values in [-1, 1] and a zero border: rows 0...3 and
    /// 12...15 are padding (-1), the middle rows 200 × 2/255 − 1 = 0.5686.
    @Test func letterboxSamplingPadsWithZero() throws {
        let image = try Fixtures.canvas(width: 40, height: 20, gray: 200).makeImage()
        let region = MediaPipeRegion.fullImage(width: 40, height: 20).keepingAspectRatio(
            tensorWidth: 16, tensorHeight: 16)
        #expect(region.width == 40 && region.height == 40)
        let model = try StubModel.make(width: 16, height: 16)
        let tensor = try MediaPipeTensorInput.tensor(
            for: model, image: image, region: region, range: -1...1, borderZero: true)
        #expect(tensor.shape == [1, 16, 16, 3])
        func value(_ row: Int, _ column: Int) -> Float { tensor.scalars[(row * 16 + column) * 3] }
        #expect(value(0, 8) == -1 && value(2, 3) == -1 && value(14, 8) == -1)
        #expect(abs(value(8, 8) - (200 * 2 / 255 - 1)) < 1e-4 && abs(value(6, 1) - (200 * 2 / 255 - 1)) < 1e-4)
    }

    /// A model whose input is not an image is `invalidModel`, naming the model and its input.
    @Test func modelWithoutImageInputIsInvalid() throws {
        let model = try VisionModel(
            backend: StubModel.Backend(width: 16, height: 16, shape: [1, 10]), url: URL(fileURLWithPath: "/flat.tflite")
        )
        do {
            _ = try MediaPipeTensorInput.inputGeometry(of: model)
            Issue.record("expected invalidModel")
        } catch {
            #expect(
                error.code == .invalidModel && error.message.contains("flat.tflite")
                    && error.message.contains("[1×10]"), "\(error.message)")
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
        func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
            [Tensor(name: "out", shape: [1, 1], scalars: [0])]
        }
    }

    static func make(width: Int, height: Int) throws -> VisionModel {
        try VisionModel(backend: Backend(width: width, height: height), url: URL(fileURLWithPath: "/stub.tflite"))
    }
}
