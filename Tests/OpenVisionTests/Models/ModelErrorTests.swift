import Foundation
import OpenVision
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

/// Bad models and a missing or wrong ONNX Runtime give typed errors, never a crash.
@Suite struct ModelErrorTests {
    static func temp(_ name: String, _ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-\(name)")
        try data.write(to: url)
        return url
    }

    static func expectError(
        _ code: VisionError.Code, containing text: String? = nil, _ body: () throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("expected \(code)", sourceLocation: sourceLocation)
        } catch let error as VisionError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let text { #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func corruptAndTruncatedONNX() throws {
        let random = try Self.temp("random.onnx", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }))
        defer { try? FileManager.default.removeItem(at: random) }
        for backend in [BackendChoice.onnxRuntime, .openCV] {
            var c = VisionModel.Configuration()
            c.backend = backend
            Self.expectError(.invalidModel) { _ = try VisionModel(contentsOf: random, configuration: c) }
        }
        let real = try Data(contentsOf: try #require(ModelLocator.find("efficientnet-lite0.onnx")))
        let truncated = try Self.temp("truncated.onnx", real.prefix(real.count / 3))
        defer { try? FileManager.default.removeItem(at: truncated) }
        Self.expectError(.invalidModel) { _ = try VisionModel(contentsOf: truncated) }
    }

    @Test func darknetWithoutWeights() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-cfg-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cfg = dir.appendingPathComponent("net.cfg")
        try FileManager.default.copyItem(
            at: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1.cfg"), to: cfg)
        Self.expectError(.missingModelData, containing: "net.weights") { _ = try VisionModel(contentsOf: cfg) }
        // Weights of the wrong network: OpenCV refuses them.
        try FileManager.default.copyItem(
            at: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1-xl.weights"),
            to: dir.appendingPathComponent("net.weights"))
        #expect(throws: (any Error).self) {
            _ = try DarknetConverter.convert(
                cfg: cfg, weights: dir.appendingPathComponent("net.weights"), names: nil,
                to: dir.appendingPathComponent("net.onnx"))
        }
    }

    /// Issue 14, finding 4: an input of 100000 × 100000 made `makeInput` allocate 120 GB and abort the
    /// process; it is an `invalidModel` error when the model is loaded.
    @Test func hugeModelInputIsRejectedAtLoad() throws {
        let shape: [ONNXWriter.Dimension] = [.value(1), .value(3), .value(100_000), .value(100_000)]
        var graph = ONNXWriter.Graph(name: "huge")
        graph.inputs = [ONNXWriter.ValueInfo(name: "images", elementType: .float, shape: shape)]
        graph.outputs = [ONNXWriter.ValueInfo(name: "out", elementType: .float, shape: shape)]
        graph.nodes = [ONNXWriter.Node(opType: "Identity", name: "id", inputs: ["images"], outputs: ["out"])]
        let onnx = try Self.temp("hugein.onnx", ONNXWriter.Model(graph: graph).serialized())
        defer { try? FileManager.default.removeItem(at: onnx) }
        for backend in [BackendChoice.onnxRuntime, .openCV] {
            var c = VisionModel.Configuration()
            c.backend = backend
            Self.expectError(.invalidModel, containing: "1...16384") {
                _ = try VisionModel(contentsOf: onnx, configuration: c)
            }
        }

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-huge-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let xl = ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1-xl")
        let text = try String(contentsOf: xl.appendingPathExtension("cfg"), encoding: .utf8)
            .replacingOccurrences(of: "width=320", with: "width=100000")
        #expect(text.contains("width=100000"))
        try text.write(to: dir.appendingPathComponent("huge.cfg"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("huge.weights"),
            withDestinationURL: xl.appendingPathExtension("weights"))
        Self.expectError(.invalidModel, containing: "width=100000") {
            _ = try VisionModel(contentsOf: dir.appendingPathComponent("huge.cfg"))
        }
    }

    /// Issue 14, finding 6: OpenCV ran a truncated `.weights` as if the rest were zeros (300 boxes of
    /// "class0 0.25"); the weight count is checked against the `.cfg` when the model is loaded.
    @Test func truncatedDarknetWeightsAreRejectedAtLoad() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-truncw-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let xl = ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1-xl")
        try FileManager.default.copyItem(
            at: xl.appendingPathExtension("cfg"), to: dir.appendingPathComponent("net.cfg"))
        try Data(contentsOf: xl.appendingPathExtension("weights")).prefix(2_000_000)
            .write(to: dir.appendingPathComponent("net.weights"))
        Self.expectError(.invalidModel, containing: "has 499995 floats, the cfg needs 923486") {
            _ = try VisionModel(contentsOf: dir.appendingPathComponent("net.cfg"))
        }
    }

    @Test func missingFileAndUnknownFormat() throws {
        Self.expectError(.fileNotFound) {
            _ = try VisionModel(contentsOf: URL(fileURLWithPath: "/nonexistent/model.onnx"))
        }
        // An unknown format is unsupported; a 1-byte .tflite or .mlmodel is invalidModel (both formats are read now).
        let unknown = try Self.temp("model.pt", Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: unknown) }
        Self.expectError(.unsupported) { _ = try VisionModel(contentsOf: unknown) }
        let coreml = try Self.temp("model.mlmodel", Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: coreml) }
        Self.expectError(.invalidModel, containing: "model.mlmodel") { _ = try VisionModel(contentsOf: coreml) }
        let tflite = try Self.temp("model.tflite", Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: tflite) }
        Self.expectError(.invalidModel, containing: "not a TFLite model") { _ = try VisionModel(contentsOf: tflite) }
    }

    @Test func labelsThatDoNotMatchTheClasses() async throws {
        var c = VisionModel.Configuration()
        c.labels = ["one", "two", "three"]
        let model = try VisionModel(
            contentsOf: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1.cfg"), configuration: c)
        do {
            _ = try await ImageRequestHandler(Fixtures.sharedImage("dog.jpg")).perform(
                DetectObjectsRequest(model: model))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidModel && error.message.contains("80 classes but 3 labels"))
        }
    }
}
