import Foundation
import Testing

@testable import OpenVisionConverters

/// Issue 28, item 12: the sizes an ONNX graph fixes before it runs. The 250-byte
/// `ConstantOfShape [1, 84, 5e7]` grew ONNX Runtime to 24 GB (16.8 GB of float32 folded at load);
/// this reading finds such tensors in the file.
@Suite struct ONNXStaticTensorsTests {
    static func model(
        inputs: [ONNXWriter.ValueInfo] = [ONNXWriter.ValueInfo(name: "x", elementType: .float, shape: [.value(1)])],
        nodes: [ONNXWriter.Node], initializers: [ONNXWriter.Tensor] = [],
        outputs: [ONNXWriter.ValueInfo]? = nil
    ) throws -> ONNXStaticTensors {
        var graph = ONNXWriter.Graph(name: "g")
        graph.inputs = inputs
        graph.nodes = nodes
        graph.initializers = initializers
        graph.outputs =
            outputs ?? [ONNXWriter.ValueInfo(name: nodes.last!.outputs[0], elementType: .float, shape: [.param("n")])]
        return try ONNXStaticTensors(data: ONNXWriter.Model(graph: graph).serialized())
    }

    static func node(_ op: String, _ inputs: [String], _ attributes: [ONNXWriter.Attribute] = []) -> ONNXWriter.Node {
        ONNXWriter.Node(opType: op, name: op, inputs: inputs, outputs: ["y"], attributes: attributes)
    }

    @Test func constantOfShapeFromAnInitializerOrAConstant() throws {
        let shape = ONNXWriter.Tensor(name: "shape", dims: [3], int64s: [1, 84, 50_000_000])
        let fromInitializer = try Self.model(nodes: [Self.node("ConstantOfShape", ["shape"])], initializers: [shape])
        #expect(
            fromInitializer.largest
                == ONNXStaticTensors.Tensor(
                    name: "y", source: "ConstantOfShape",
                    shape: [1, 84, 50_000_000], elementType: 1,
                    bytes: 16_800_000_000))
        let viaConstant = try Self.model(nodes: [
            ONNXWriter.Node(
                opType: "Constant", name: "c", inputs: [], outputs: ["shape"],
                attributes: [.init("value", .tensor(shape))]),
            Self.node(
                "ConstantOfShape", ["shape"],
                [
                    .init(
                        "value",
                        .tensor(
                            ONNXWriter.Tensor(
                                name: "v", dims: [1], type: .uint8,
                                rawBytes: [7])))
                ]),
        ])
        #expect(viaConstant.largest?.bytes == 4_200_000_000 && viaConstant.largest?.elementType == 2)  // uint8 values
    }

    @Test func expandTileResizeRange() throws {
        let image = [
            ONNXWriter.ValueInfo(name: "x", elementType: .float, shape: [.value(1), .value(3), .value(64), .value(64)])
        ]
        let expand = try Self.model(
            nodes: [Self.node("Expand", ["x", "s"])],
            initializers: [ONNXWriter.Tensor(name: "s", dims: [4], int64s: [1, 3, 100_000, 100_000])])
        #expect(expand.largest?.shape == [1, 3, 100_000, 100_000] && expand.largest?.bytes == 120_000_000_000)
        let tile = try Self.model(
            inputs: image, nodes: [Self.node("Tile", ["x", "r"])],
            initializers: [ONNXWriter.Tensor(name: "r", dims: [4], int64s: [1, 1, 1000, 1000])])
        #expect(tile.largest?.shape == [1, 3, 64_000, 64_000])
        let sizes = try Self.model(
            inputs: image, nodes: [Self.node("Resize", ["x", "", "", "s"])],
            initializers: [ONNXWriter.Tensor(name: "s", dims: [4], int64s: [1, 3, 50_000, 50_000])])
        #expect(sizes.largest?.shape == [1, 3, 50_000, 50_000])
        let scales = try Self.model(
            inputs: image, nodes: [Self.node("Resize", ["x", "", "k"])],
            initializers: [ONNXWriter.Tensor(name: "k", dims: [4], floats: [1, 1, 512, 512])])
        #expect(scales.largest?.shape == [1, 3, 32_768, 32_768])
        let range = try Self.model(
            nodes: [Self.node("Range", ["a", "b", "c"])],
            initializers: [
                ONNXWriter.Tensor(name: "a", dims: [], int64s: [0]),
                ONNXWriter.Tensor(name: "b", dims: [], int64s: [4_000_000_000]),
                ONNXWriter.Tensor(name: "c", dims: [], int64s: [2]),
            ])
        #expect(range.largest?.shape == [2_000_000_000] && range.largest?.bytes == 16_000_000_000)
    }

    @Test func staticShapesAndWhatCannotBeSeen() throws {
        // A declared output.
        let shape: [ONNXWriter.Dimension] = [.value(1), .value(3), .value(16_384), .value(16_384)]
        let identity = try Self.model(
            inputs: [ONNXWriter.ValueInfo(name: "images", elementType: .float, shape: shape)],
            nodes: [Self.node("Identity", ["images"])],
            outputs: [ONNXWriter.ValueInfo(name: "y", elementType: .float, shape: shape)])
        #expect(identity.largest?.bytes == 3_221_225_472)
        // A shape computed from the input's values is not seen before running (the runtime's limit covers it);
        // graph inputs are the caller's to check.
        let dynamic = try Self.model(
            inputs: [ONNXWriter.ValueInfo(name: "x", elementType: .float, shape: [.value(3)])],
            nodes: [
                ONNXWriter.Node(
                    opType: "Cast", name: "cast", inputs: ["x"], outputs: ["s"],
                    attributes: [.init("to", .int(7))]),
                Self.node("ConstantOfShape", ["s"]),
            ])
        #expect(dynamic.largest == nil)
        #expect(throws: ConversionError.self) { _ = try ONNXStaticTensors(data: Data([0x3A, 0x05, 0x0A])) }
    }

    /// The models OpenVision ships with fix no tensor near the limit.
    @Test func convertedYoloIsSmall() throws {
        let data = try DarknetConverter.onnxData(
            cfg: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.cfg"),
            weights: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.weights"),
            names: nil)
        let largest = try #require(try ONNXStaticTensors(data: data).largest)
        #expect(largest.bytes < 10 << 20, "\(largest)")
    }
}
