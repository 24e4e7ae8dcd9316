import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// Bad models and a missing or wrong ONNX Runtime give typed errors, never a crash.
@Suite struct ModelErrorTests {
    static func temp(_ name: String, _ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-\(name)")
        try data.write(to: url)
        return url
    }

    static func expectError(_ code: VisionError.Code, containing text: String? = nil, _ body: () throws -> Void,
                            sourceLocation: SourceLocation = #_sourceLocation) {
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
        try FileManager.default.copyItem(at: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1.cfg"), to: cfg)
        Self.expectError(.missingModelData, containing: "net.weights") { _ = try VisionModel(contentsOf: cfg) }
        // Weights of the wrong network: OpenCV refuses them.
        try FileManager.default.copyItem(at: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1-xl.weights"),
                                         to: dir.appendingPathComponent("net.weights"))
        #expect(throws: (any Error).self) {
            _ = try DarknetConverter.convert(cfg: cfg, weights: dir.appendingPathComponent("net.weights"), names: nil,
                                             to: dir.appendingPathComponent("net.onnx"))
        }
    }

    @Test func missingFileAndUnknownFormat() throws {
        Self.expectError(.fileNotFound) { _ = try VisionModel(contentsOf: URL(fileURLWithPath: "/nonexistent/model.onnx")) }
        let txt = try Self.temp("model.tflite", Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: txt) }
        Self.expectError(.unsupported) { _ = try VisionModel(contentsOf: txt) }
    }

    @Test func labelsThatDoNotMatchTheClasses() async throws {
        var c = VisionModel.Configuration()
        c.labels = ["one", "two", "three"]
        let model = try VisionModel(contentsOf: ObjectDetectionTests.models.appendingPathComponent("yolo-fastest-1.1.cfg"), configuration: c)
        do {
            _ = try await ImageRequestHandler(Fixtures.sharedImage("dog.jpg")).perform(DetectObjectsRequest(model: model))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidModel && error.message.contains("80 classes but 3 labels"))
        }
    }
}
