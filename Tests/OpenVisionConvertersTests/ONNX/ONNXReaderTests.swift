import Foundation
import Testing

@testable import OpenVisionConverters

/// The ONNX protobuf reader against what the writer writes, and against bytes that are not ONNX.
@Suite struct ONNXReaderTests {
    static func identityModel(shape: [ONNXWriter.Dimension]) -> Data {
        var graph = ONNXWriter.Graph(name: "identity")
        graph.inputs = [ONNXWriter.ValueInfo(name: "images", elementType: .float, shape: shape)]
        graph.outputs = [ONNXWriter.ValueInfo(name: "out", elementType: .float, shape: shape)]
        graph.nodes = [ONNXWriter.Node(opType: "Identity", name: "id", inputs: ["images"], outputs: ["out"])]
        return ONNXWriter.Model(graph: graph, metadata: [("source", "test")]).serialized()
    }

    @Test func readsWhatTheWriterWrites() throws {
        let info = try ONNXModelInfo(
            data: Self.identityModel(shape: [.value(1), .value(3), .value(100_000), .param("w")]))
        #expect(info.inputs == [ONNXModelInfo.Value(name: "images", shape: [1, 3, 100_000, nil], elementType: 1)])
        #expect(info.outputs.map(\.name) == ["out"])
        #expect(info.metadata == ["source": "test"])
    }

    @Test func malformedBytesAreErrors() throws {
        let model = Self.identityModel(shape: [.value(1), .value(3), .value(8), .value(8)])
        for bytes in [
            Data(), Data([0xFF]), Data(repeating: 0xFF, count: 11), model.prefix(model.count / 2),
            Data([0x3A, 0x80, 0x80, 0x80, 0x80, 0x10]),
        ] {
            #expect(throws: ConversionError.self) { _ = try ONNXModelInfo(data: bytes) }
        }
    }

    @Test func convertedNetworkDeclaresItsInput() throws {
        let data = try DarknetConverter.onnxData(
            cfg: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.cfg"),
            weights: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.weights"),
            names: nil)
        let info = try ONNXModelInfo(data: data)
        #expect(info.inputs.first?.shape == [1, 3, 320, 320])
        #expect(info.metadata["source"] == "darknet")
    }
}
