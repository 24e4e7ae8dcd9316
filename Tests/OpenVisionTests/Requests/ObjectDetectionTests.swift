import Foundation
import OpenVision
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

/// Yolo-Fastest (Darknet, COCO-80) on real photos, on OpenCV DNN and, converted, on ONNX Runtime.
@Suite(.serialized) struct ObjectDetectionTests {
    static let models = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco")

    struct Expected: Sendable {
        var label: String
        var score: Float
        /// x, y, width, height in pixels, top-left origin.
        var box: (Double, Double, Double, Double)
    }

    // Reference: Python OpenCV 4.6 DNN (Debian python3-opencv) on the same files, score = class
    // probability (objectness applied) ≥ 0.25, per-class NMS 0.45:
    //   net = cv2.dnn.readNetFromDarknet(cfg, weights); net.setInput(cv2.dnn.blobFromImage(im, 1/255, (320, 320), swapRB=True))
    //   rows = np.concatenate(net.forward(net.getUnconnectedOutLayersNames())); cls = rows[:, 5:].argmax(1); ...
    //   cv2.dnn.NMSBoxes per class (score 0.25, IoU 0.45); boxes (cx - w/2) * W, (cy - h/2) * H, w * W, h * H.
    static let reference: [String: [String: [Expected]]] = [
        "yolo-fastest-1.1-xl": [
            "dog.jpg": [
                .init(label: "dog", score: 0.958, box: (113.9, 188.5, 272.0, 347.1)),
                .init(label: "bicycle", score: 0.894, box: (113.0, 126.7, 460.4, 370.7)),
                .init(label: "car", score: 0.841, box: (449.8, 78.2, 234.8, 84.3)),
                .init(label: "truck", score: 0.256, box: (455.0, 65.7, 206.1, 91.7)),
            ],
            "person.jpg": [
                .init(label: "person", score: 0.995, box: (187.7, 102.6, 83.7, 260.3)),
                .init(label: "dog", score: 0.981, box: (57.9, 252.3, 148.9, 101.6)),
                .init(label: "cow", score: 0.969, box: (389.3, 142.6, 220.1, 191.0)),
            ],
        ],
        "yolo-fastest-1.1": [
            "person.jpg": [
                .init(label: "person", score: 0.986, box: (182.4, 87.8, 87.9, 292.7)),
                .init(label: "dog", score: 0.853, box: (73.5, 259.6, 138.9, 93.4)),
                .init(label: "sheep", score: 0.774, box: (420.1, 141.1, 162.8, 178.8)),
            ]
        ],
    ]

    static func check(
        _ observations: [RecognizedObjectObservation], against expected: [Expected], imageSize: CGSize,
        minimumIoU: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            observations.count == expected.count, "\(observations.map { $0.labels[0].identifier })",
            sourceLocation: sourceLocation)
        for e in expected {
            let reference = NormalizedRect(
                imageRect: CGRect(x: e.box.0, y: e.box.1, width: e.box.2, height: e.box.3),
                in: imageSize, origin: .upperLeft)
            let match = observations.filter { $0.labels.first?.identifier == e.label }
                .max {
                    $0.boundingBox.intersectionOverUnion(reference) < $1.boundingBox.intersectionOverUnion(reference)
                }
            guard let match else {
                Issue.record("no \(e.label) found", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                match.boundingBox.intersectionOverUnion(reference) >= minimumIoU,
                "\(e.label): IoU \(match.boundingBox.intersectionOverUnion(reference))", sourceLocation: sourceLocation)
            #expect(
                abs(match.confidence - e.score) < 0.01, "\(e.label): \(match.confidence) vs \(e.score)",
                sourceLocation: sourceLocation)
        }
    }

    static func convertedModel(_ name: String) throws -> URL {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(name)-\(UUID()).onnx")
        try DarknetConverter.convert(
            cfg: models.appendingPathComponent("\(name).cfg"),
            weights: models.appendingPathComponent("\(name).weights"),
            names: models.appendingPathComponent("coco.names"), to: out)
        return out
    }

    @Test(arguments: ["yolo-fastest-1.1-xl", "yolo-fastest-1.1"])
    func darknetOnOpenCVMatchesPythonOpenCV(_ name: String) async throws {
        let model = try VisionModel(contentsOf: Self.models.appendingPathComponent("\(name).cfg"))
        #expect(model.modelDescription.labels.count == 80 && model.modelDescription.labels[16] == "dog")
        #expect(
            model.modelDescription.preprocessing.width == 320
                && model.modelDescription.preprocessing.cropAndScale == .scaleFill)
        for (image, expected) in Self.reference[name] ?? [:] {
            let handler = ImageRequestHandler(Fixtures.sharedImage(image))
            let objects = try await handler.perform(DetectObjectsRequest(model: model))
            Self.check(objects, against: expected, imageSize: try handler.image().size, minimumIoU: 0.99)
        }
    }

    @Test(arguments: ["yolo-fastest-1.1-xl", "yolo-fastest-1.1"])
    func convertedModelOnONNXRuntimeGivesTheSameBoxes(_ name: String) async throws {
        let url = try Self.convertedModel(name)
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = VisionModel.Configuration()
        configuration.backend = .onnxRuntime
        configuration.threads = 2
        let model = try VisionModel(contentsOf: url, configuration: configuration)
        #expect(model.modelDescription.backend.hasPrefix("onnxruntime"))
        #expect(model.modelDescription.labelsSource == "metadata:names" && model.modelDescription.labels.count == 80)
        for (image, expected) in Self.reference[name] ?? [:] {
            let handler = ImageRequestHandler(Fixtures.sharedImage(image))
            let objects = try await handler.perform(DetectObjectsRequest(model: model))
            Self.check(objects, against: expected, imageSize: try handler.image().size, minimumIoU: 0.99)
        }
    }

    @Test func sameModelOnBothBackends() async throws {
        let url = try Self.convertedModel("yolo-fastest-1.1-xl")
        defer { try? FileManager.default.removeItem(at: url) }
        var cv = VisionModel.Configuration()
        cv.backend = .openCV
        let onOpenCV = try VisionModel(contentsOf: url, configuration: cv)
        let onORT = try VisionModel(contentsOf: url)
        let handler = ImageRequestHandler(Fixtures.sharedImage("dog.jpg"))
        let (a, b) = try await handler.perform(
            DetectObjectsRequest(model: onOpenCV), DetectObjectsRequest(model: onORT))
        #expect(a.count == b.count && a.count == 4)
        for (x, y) in zip(a, b) {
            #expect(x.labels[0].identifier == y.labels[0].identifier)
            #expect(x.boundingBox.intersectionOverUnion(y.boundingBox) > 0.999)
        }
    }

    @Test func optionsFilterDetections() async throws {
        let model = try VisionModel(contentsOf: Self.models.appendingPathComponent("yolo-fastest-1.1-xl.cfg"))
        let handler = ImageRequestHandler(Fixtures.sharedImage("dog.jpg"))
        var request = DetectObjectsRequest(model: model)
        request.allowedLabels = ["dog", "car"]
        #expect(Set(try await handler.perform(request).map { $0.labels[0].identifier }) == ["dog", "car"])
        request.allowedLabels = nil
        request.confidenceThreshold = 0.85
        #expect(try await handler.perform(request).map { $0.labels[0].identifier } == ["dog", "bicycle"])
        request.confidenceThreshold = 0.25
        request.maximumObservations = 2
        #expect(try await handler.perform(request).count == 2)
        // Labels are sorted by confidence, the first being the detection's class.
        request.maximumObservations = 0
        for o in try await handler.perform(request) {
            #expect(zip(o.labels, o.labels.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
            #expect(o.confidence == o.labels[0].confidence)
        }
    }

    @Test func regionOfInterestResultsMapBack() async throws {
        let model = try VisionModel(contentsOf: Self.models.appendingPathComponent("yolo-fastest-1.1-xl.cfg"))
        let handler = ImageRequestHandler(Fixtures.sharedImage("person.jpg"))
        var request = DetectObjectsRequest(model: model)
        request.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)  // the left half: person and dog
        let objects = try await handler.perform(request)
        #expect(Set(objects.map { $0.labels[0].identifier }).isSuperset(of: ["person", "dog"]))
        #expect(!objects.contains { $0.labels[0].identifier == "cow" })
        let person = try #require(objects.first { $0.labels[0].identifier == "person" })
        let full = person.boundingBox.toFullImage(fromRegionOfInterest: request.regionOfInterest)
        let reference = NormalizedRect(
            imageRect: CGRect(x: 187.7, y: 102.6, width: 83.7, height: 260.3),
            in: CGSize(width: 640, height: 424), origin: .upperLeft)
        #expect(full.intersectionOverUnion(reference) > 0.7)  // a different crop, a slightly different box
    }
}
