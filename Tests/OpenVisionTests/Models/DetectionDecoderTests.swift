import Foundation
import OpenVision
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

/// Output decoders, NMS and input mappings on tensors whose meaning is known.
@Suite struct DetectionDecoderTests {
    static let labels = ["person", "bicycle", "car"]

    /// A model whose outputs the tests supply: the converted Yolo-Fastest gives a real `VisionModel`
    /// (labels, 320 × 320 input) to hang the decoders on.
    static let model: VisionModel = {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ov-decoder-\(UUID()).onnx")
        let dir = ObjectDetectionTests.models
        try! DarknetConverter.convert(
            cfg: dir.appendingPathComponent("yolo-fastest-1.1.cfg"),
            weights: dir.appendingPathComponent("yolo-fastest-1.1.weights"), names: nil, to: out)
        var configuration = VisionModel.Configuration()
        configuration.labels = labels
        defer { try? FileManager.default.removeItem(at: out) }  // the session is built at load time
        return try! VisionModel(contentsOf: out, configuration: configuration)
    }()

    /// A 640 × 480 image letterboxed into 320 × 320: scale 0.5, 40 px bands top and bottom.
    static let letterbox = InputMapping.fitting(width: 640, height: 480, into: 320, 320, mode: .scaleFit)

    static func request(_ format: DetectionOutputFormat?) -> DetectObjectsRequest {
        var r = DetectObjectsRequest(model: model)
        r.outputFormat = format
        return r
    }

    /// Expects one observation per (label, pixel box in the 640 × 480 image).
    static func expect(
        _ observations: [RecognizedObjectObservation], _ expected: [(String, CGRect)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(observations.count == expected.count, sourceLocation: sourceLocation)
        for ((label, rect), o) in zip(expected, observations) {
            #expect(o.labels.first?.identifier == label, sourceLocation: sourceLocation)
            let box = o.boundingBox.toImageCoordinates(CGSize(width: 640, height: 480), origin: .upperLeft)
            #expect(
                abs(box.minX - rect.minX) < 0.01 && abs(box.minY - rect.minY) < 0.01
                    && abs(box.width - rect.width) < 0.01 && abs(box.height - rect.height) < 0.01,
                "\(box) vs \(rect)", sourceLocation: sourceLocation)
        }
    }

    @Test func letterboxMapping() {
        let m = Self.letterbox
        #expect(m.scaleX == 0.5 && m.scaleY == 0.5 && m.offsetX == 0 && m.offsetY == 40)
        let p = m.sourcePoint(x: 160, y: 40)
        #expect(p.x == 320 && p.y == 0)
        let back = m.inputPoint(x: p.x, y: p.y)
        #expect(back.x == 160 && back.y == 40)
    }

    @Test func yolov8ChannelsFirst() throws {
        // [1, 4 + 3, 4]: anchors as columns. Anchor 0: car 0.9 at input (100, 140) size 40 × 20;
        // anchor 1: a weaker duplicate (NMS removes it); anchor 2: below threshold; anchor 3: person 0.5.
        let anchors: [[Float]] = [
            [100, 140, 40, 20, 0.0, 0.1, 0.9], [101, 140, 40, 20, 0.0, 0.0, 0.6],
            [50, 50, 10, 10, 0.1, 0.0, 0.0], [200, 160, 20, 60, 0.5, 0.0, 0.0],
        ]
        var scalars: [Float] = []
        for channel in 0..<7 { for a in anchors { scalars.append(a[channel]) } }
        let output = Tensor(name: "output0", shape: [1, 7, 4], scalars: scalars)
        let observations = try Self.request(.yolov8).observations(fromOutputs: [output], mapping: Self.letterbox)
        // Input (100, 140, 40 × 20) → image ((80 - 0) / 0.5, (130 - 40) / 0.5, 80 × 40).
        Self.expect(
            observations,
            [
                ("car", CGRect(x: 160, y: 180, width: 80, height: 40)),
                ("person", CGRect(x: 380, y: 180, width: 40, height: 120)),
            ])
        #expect(observations[0].labels.map(\.identifier) == ["car", "bicycle"])
    }

    @Test func yolov5Rows() throws {
        // [1, 3, 5 + 3]: score = objectness × class probability.
        let rows: [Float] = [
            100, 140, 40, 20, 0.8, 0.1, 0.1, 0.9,
            200, 160, 20, 60, 0.2, 0.9, 0.0, 0.0,  // 0.18 < 0.25
            60, 100, 20, 20, 0.9, 0.0, 0.5, 0.0,
        ]
        let output = Tensor(name: "output", shape: [1, 3, 8], scalars: rows)
        let observations = try Self.request(nil).observations(fromOutputs: [output], mapping: Self.letterbox)
        Self.expect(
            observations,
            [
                ("car", CGRect(x: 160, y: 180, width: 80, height: 40)),
                ("bicycle", CGRect(x: 100, y: 100, width: 40, height: 40)),
            ])
        #expect(abs(observations[0].confidence - 0.72) < 1e-6)
    }

    @Test func endToEndExports() throws {
        // [1, 2, 6] rows x1, y1, x2, y2, score, class (NMS already applied by the model).
        let six = Tensor(
            name: "output0", shape: [1, 2, 6], scalars: [80, 130, 120, 150, 0.9, 2, 0, 40, 10, 60, 0.1, 0])
        Self.expect(
            try Self.request(nil).observations(fromOutputs: [six], mapping: Self.letterbox),
            [("car", CGRect(x: 160, y: 180, width: 80, height: 40))])
        // [N, 7] rows batch, x1, y1, x2, y2, class, score.
        let seven = Tensor(name: "dets", shape: [1, 7], scalars: [0, 80, 130, 120, 150, 1, 0.7])
        Self.expect(
            try Self.request(.endToEnd).observations(fromOutputs: [seven], mapping: Self.letterbox),
            [("bicycle", CGRect(x: 160, y: 180, width: 80, height: 40))])
    }

    @Test func ssdBoxesAndScores() throws {
        // Normalised corner boxes [1, 2, 4] and scores [1, 2, 3].
        let boxes = Tensor(
            name: "boxes", shape: [1, 2, 4], scalars: [0.25, 130.0 / 320, 0.375, 150.0 / 320, 0.1, 0.1, 0.2, 0.2])
        let scores = Tensor(name: "scores", shape: [1, 2, 3], scalars: [0.05, 0.05, 0.9, 0.1, 0.1, 0.1])
        Self.expect(
            try Self.request(nil).observations(fromOutputs: [boxes, scores], mapping: Self.letterbox),
            [("car", CGRect(x: 160, y: 180, width: 80, height: 40))])
    }

    /// The same converted model with other labels.
    static func model(labels: [String]) throws -> VisionModel {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ov-decoder-\(UUID()).onnx")
        let dir = ObjectDetectionTests.models
        try DarknetConverter.convert(
            cfg: dir.appendingPathComponent("yolo-fastest-1.1.cfg"),
            weights: dir.appendingPathComponent("yolo-fastest-1.1.weights"), names: nil, to: out)
        defer { try? FileManager.default.removeItem(at: out) }
        var configuration = VisionModel.Configuration()
        configuration.labels = labels
        return try VisionModel(contentsOf: out, configuration: configuration)
    }

    /// UltraFace (Linzaer's version-RFB-320 / slim-320): `scores [1, N, 2]` (background, face) first, then
    /// `boxes [1, N, 4]` (normalised corners). The background column is skipped; one label, "face".
    @Test func ultraFaceScoresFirstWithABackgroundColumn() throws {
        let scores = Tensor(name: "scores", shape: [1, 3, 2], scalars: [0.98, 0.02, 0.1, 0.9, 0.6, 0.4])
        let boxes = Tensor(
            name: "boxes", shape: [1, 3, 4],
            scalars: [
                0, 0, 1, 1, 0.25, 130.0 / 320, 0.375, 150.0 / 320,
                0.5, 0.5, 0.6, 0.6,
            ])
        #expect(DetectionOutputFormat.allCases.contains(.ssd))
        var request = DetectObjectsRequest(model: try Self.model(labels: ["face"]))
        request.confidenceThreshold = 0.5
        let faces = try request.observations(fromOutputs: [scores, boxes], mapping: Self.letterbox)
        Self.expect(faces, [("face", CGRect(x: 160, y: 180, width: 80, height: 40))])
        #expect(abs((faces.first?.confidence ?? 0) - 0.9) < 1e-6)
    }

    /// An SSD whose labels start with "background" (TF Object Detection API / torchvision style).
    @Test func ssdWithANamedBackgroundLabel() throws {
        let boxes = Tensor(
            name: "boxes", shape: [1, 2, 4], scalars: [0.25, 130.0 / 320, 0.375, 150.0 / 320, 0.1, 0.1, 0.2, 0.2])
        let scores = Tensor(name: "scores", shape: [1, 2, 4], scalars: [0.02, 0.03, 0.05, 0.9, 0.7, 0.1, 0.1, 0.1])
        let request = DetectObjectsRequest(model: try Self.model(labels: ["background"] + Self.labels))
        // Row 1 is background (0.7): no detection; row 0 is a car (column 3).
        Self.expect(
            try request.observations(fromOutputs: [boxes, scores], mapping: Self.letterbox),
            [("car", CGRect(x: 160, y: 180, width: 80, height: 40))])
        var cars = request
        cars.allowedLabels = ["car"]
        #expect(try cars.observations(fromOutputs: [boxes, scores], mapping: Self.letterbox).count == 1)
        cars.allowedLabels = ["person"]
        #expect(try cars.observations(fromOutputs: [boxes, scores], mapping: Self.letterbox).isEmpty)
    }

    /// OpenCV's face detector (res10 SSD) and other Caffe/TF SSDs: `[1, 1, N, 7]` DetectionOutput rows.
    @Test func ssdDetectionOutputRows() throws {
        let rows = Tensor(
            name: "detection_out", shape: [1, 1, 3, 7],
            scalars: [
                0, 1, 0.95, 0.25, 130.0 / 320, 0.375, 150.0 / 320,  // label 1 → class 0
                0, 0, 0.99, 0.1, 0.1, 0.2, 0.2,  // background: never reported
                0, 3, 0.1, 0.5, 0.5, 0.6, 0.6,  // below the threshold
            ])
        #expect(DetectionOutputFormat.infer(from: [rows]) == .detectionOutput)
        Self.expect(
            try Self.request(nil).observations(fromOutputs: [rows], mapping: Self.letterbox),
            [("person", CGRect(x: 160, y: 180, width: 80, height: 40))])
        // Labels that list the background first (as the face detector's do) name label 1 "face".
        let faces = DetectObjectsRequest(model: try Self.model(labels: ["background", "face"]))
        Self.expect(
            try faces.observations(fromOutputs: [rows], mapping: Self.letterbox),
            [("face", CGRect(x: 160, y: 180, width: 80, height: 40))])
    }

    /// YuNet (2023): per stride cls/obj/bbox/kps; one face at stride 16, cell (row 10, col 12) of the
    /// 320 × 320 input: centre ((12 + 0.5) × 16, (10 + 0) × 16) = (200, 160), size (16 e^ln5, 16 e^ln2.5) = 80 × 40,
    /// score sqrt(0.81 × 1) = 0.9 (OpenCV 4.8 FaceDetectorYN's decoding).
    @Test func yunetPerStrideOutputs() throws {
        var outputs: [Tensor] = []
        for stride in [8, 16, 32] {
            let cells = (320 / stride) * (320 / stride)
            var cls = [Float](repeating: 0, count: cells)
            var obj = cls
            var bbox = [Float](repeating: 0, count: 4 * cells)
            if stride == 16 {
                let i = 10 * 20 + 12
                cls[i] = 0.81
                obj[i] = 1
                bbox[4 * i] = 0.5
                bbox[4 * i + 2] = log(5)
                bbox[4 * i + 3] = log(2.5)
            }
            outputs += [
                Tensor(name: "cls_\(stride)", shape: [1, cells, 1], scalars: cls),
                Tensor(name: "obj_\(stride)", shape: [1, cells, 1], scalars: obj),
                Tensor(name: "bbox_\(stride)", shape: [1, cells, 4], scalars: bbox),
                Tensor(
                    name: "kps_\(stride)", shape: [1, cells, 10], scalars: [Float](repeating: 0, count: 10 * cells)),
            ]
        }
        #expect(DetectionOutputFormat.infer(from: outputs) == .yunet)
        let faces = try DetectObjectsRequest(model: try Self.model(labels: ["face"])).observations(
            fromOutputs: outputs, mapping: Self.letterbox)
        Self.expect(faces, [("face", CGRect(x: 320, y: 200, width: 160, height: 80))])
        #expect(abs((faces.first?.confidence ?? 0) - 0.9) < 1e-5)
    }

    /// FastestDet `[1, 5 + C, H, W]` on a 2 × 2 grid: cell (row 1, col 1) holds a car at input centre
    /// ((1 + tanh(atanh 0.25)) / 2, (1 + tanh 0) / 2) = (0.625, 0.5), size (σ(−ln 3), σ(−ln 7)) = (0.25, 0.125);
    /// score 0.9^0.6 × 1^0.4 (its demo's obj^0.6 × cls^0.4).
    @Test func fastestDetGrid() throws {
        let (plane, cell) = (4, 3)
        var v = [Float](repeating: 0, count: 8 * plane)
        v[0 * plane + cell] = 0.9
        v[1 * plane + cell] = atanh(0.25)
        v[2 * plane + cell] = 0
        v[3 * plane + cell] = -log(3)
        v[4 * plane + cell] = -log(7)
        v[(5 + 2) * plane + cell] = 1  // car
        v[0 * plane + 0] = 0.01  // a weak cell elsewhere
        v[5 * plane + 0] = 1
        let grid = Tensor(name: "output", shape: [1, 8, 2, 2], scalars: v)
        #expect(DetectionOutputFormat.infer(from: [grid]) == .fastestDet)
        let found = try Self.request(nil).observations(fromOutputs: [grid], mapping: Self.letterbox)
        // Input box 160...240 × 140...180, back through the letterbox (scale 0.5, 40 px band).
        Self.expect(found, [("car", CGRect(x: 320, y: 200, width: 160, height: 80))])
        #expect(abs((found.first?.confidence ?? 0) - pow(0.9, 0.6)) < 1e-5)
    }

    @Test func darknetRows() throws {
        // [cx, cy, w, h] normalised to the input, objectness, class scores (objectness applied).
        let rows = Tensor(
            name: "yolo_16", shape: [2, 8],
            scalars: [
                100.0 / 320, 140.0 / 320, 40.0 / 320, 20.0 / 320, 0.95, 0, 0, 0.9,
                0.5, 0.5, 0.1, 0.1, 0.1, 0.1, 0, 0,
            ])
        Self.expect(
            try Self.request(nil).observations(fromOutputs: [rows], mapping: Self.letterbox),
            [("car", CGRect(x: 160, y: 180, width: 80, height: 40))])
    }

    @Test func unknownOutputShapesNameTheShapes() {
        let odd = Tensor(name: "weird", shape: [2, 3, 4, 5], scalars: Array(repeating: 0, count: 120))
        do {
            _ = try Self.request(nil).observations(fromOutputs: [odd], mapping: Self.letterbox)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidModel)
            #expect(error.message.contains("weird [2, 3, 4, 5]"))
        }
    }

    @Test func labelCountMustMatchClasses() {
        // Four classes in the output, three labels in the model.
        let output = Tensor(name: "output0", shape: [1, 8, 1], scalars: [100, 140, 40, 20, 0.9, 0, 0, 0])
        do {
            _ = try Self.request(.yolov8).observations(fromOutputs: [output], mapping: Self.letterbox)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidModel && error.message.contains("4 classes but 3 labels"))
        }
    }

    @Test func nonMaximumSuppressionMatchesTorchvision() {
        // torchvision.ops.batched_nms(boxes, scores, idxs, 0.5) on these boxes keeps [0, 2, 3]:
        //   boxes = [[0,0,10,10],[1,1,11,11],[20,20,30,30],[0,0,10,10]], scores = [.9,.8,.7,.6], idxs = [0,0,0,1]
        let c = [
            DetectionCandidate(x1: 0, y1: 0, x2: 10, y2: 10, score: 0.9, classIndex: 0),
            DetectionCandidate(x1: 1, y1: 1, x2: 11, y2: 11, score: 0.8, classIndex: 0),
            DetectionCandidate(x1: 20, y1: 20, x2: 30, y2: 30, score: 0.7, classIndex: 0),
            DetectionCandidate(x1: 0, y1: 0, x2: 10, y2: 10, score: 0.6, classIndex: 1),
        ]
        #expect(
            NonMaximumSuppression.apply(c, iouThreshold: 0.5, classAgnostic: false).map(\.score) == [0.9, 0.7, 0.6])
        // Class-agnostic (torchvision.ops.nms): the class-1 duplicate goes too.
        #expect(NonMaximumSuppression.apply(c, iouThreshold: 0.5, classAgnostic: true).map(\.score) == [0.9, 0.7])
        // IoU([0,0,10,10], [1,1,11,11]) = 81 / 119 = 0.68: kept at a 0.7 threshold.
        #expect(NonMaximumSuppression.apply(c, iouThreshold: 0.7, classAgnostic: true).count == 3)
    }

    @Test(arguments: [ImageCropAndScaleOption.scaleFit, .centerCrop, .scaleFill])
    func inputMappingMatchesThePixels(_ mode: ImageCropAndScaleOption) throws {
        // A black square at (400, 100)-(480, 180) on a white 640 × 480 image; find it in the model input.
        var canvas = try Fixtures.canvas(width: 640, height: 480)
        try Fixtures.fill([(400, 100), (480, 100), (480, 180), (400, 180)], on: &canvas, gray: 0)
        let (tensor, mapping) = try Self.model.makeInput(from: canvas.makeImage(), cropAndScale: mode)
        let expected = InputMapping.fitting(width: 640, height: 480, into: 320, 320, mode: mode)
        #expect(
            abs(mapping.scaleX - expected.scaleX) < 1e-6 && abs(mapping.scaleY - expected.scaleY) < 1e-6
                && abs(mapping.offsetX - expected.offsetX) < 1e-4 && abs(mapping.offsetY - expected.offsetY) < 1e-4,
            "\(mapping)")
        // Red channel plane (NCHW, RGB, scaled 0...1): dark pixels are the square.
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, Int.min, Int.min)
        for y in 0..<320 {
            for x in 0..<320 where tensor.scalars[y * 320 + x] < 0.2 {  // letterbox padding is 114/255
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        let a = mapping.sourcePoint(x: Double(minX), y: Double(minY))
        let b = mapping.sourcePoint(x: Double(maxX + 1), y: Double(maxY + 1))
        let tolerance = 2.5 / min(mapping.scaleX, mapping.scaleY) / 2
        #expect(
            abs(a.x - 400) < tolerance && abs(a.y - 100) < tolerance && abs(b.x - 480) < tolerance
                && abs(b.y - 180) < tolerance,
            "\(mode): \(a) \(b)")
    }
}
