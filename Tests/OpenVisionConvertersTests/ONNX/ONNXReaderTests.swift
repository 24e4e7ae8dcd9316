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

    /// HardSigmoid nodes with an explicit beta of 0 (which OpenVINO 2026.4 runs as 0.5) are listed by name, else by
    /// node index; a beta of 0.5 or none (ONNX's default 0.5) is not.
    @Test func listsHardSigmoidsWithZeroBeta() throws {
        let shape: [ONNXWriter.Dimension] = [.value(1), .value(4)]
        var graph = ONNXWriter.Graph(name: "hardsigmoid")
        graph.inputs = [ONNXWriter.ValueInfo(name: "x", elementType: .float, shape: shape)]
        graph.outputs = [ONNXWriter.ValueInfo(name: "d", elementType: .float, shape: shape)]
        func node(_ name: String, _ input: String, _ output: String, beta: Float?) -> ONNXWriter.Node {
            ONNXWriter.Node(
                opType: "HardSigmoid", name: name, inputs: [input], outputs: [output],
                attributes: [ONNXWriter.Attribute("alpha", .float(1.0 / 6))]
                    + (beta.map { [ONNXWriter.Attribute("beta", .float($0))] } ?? []))
        }
        graph.nodes = [
            node("zero", "x", "a", beta: 0), node("half", "a", "b", beta: 0.5), node("default", "b", "c", beta: nil),
            node("", "c", "d", beta: 0),
        ]
        let info = try ONNXModelInfo(data: ONNXWriter.Model(graph: graph).serialized())
        #expect(info.zeroBetaHardSigmoids == ["zero", "#3"])
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
