import Testing

@testable import OpenVisionConverters

/// The nodes a classic model's graph leaves out (`CoreMLToONNX.simplifyClassicGraph`): a network's innerProduct wraps
/// its Gemm in reshapes to Core ML's `[n]` and back, which cost ONNX Runtime more than these models' arithmetic
/// (issue 36's network + GLM pipeline ran 1.20× onnxmltools' graph, which is Gemm, Relu, LinearRegressor). The
/// answers of the simplified graphs are held to their libraries in `CoreMLClassicTests` (network_then_glm included).
@Suite struct ClassicGraphSimplificationTests {
    /// x [1, 3] → Reshape [1, 3] → Gemm (4 × 3) → Reshape [4] → `activation` → Reshape [1, 4] → Gemm (1 × 4) → y: what
    /// the converter writes for Tests/Fixtures/coreml/classic/network_then_glm.mlmodel before simplification.
    static func networkThenGLM(activation: String = "Relu", hiddenIsOutput: Bool = false) -> CoreMLToONNX {
        var c = CoreMLToONNX(name: "g", blob: { _ in [] })
        c.graph.inputs = [.init(name: "x", elementType: .float, shape: [.value(1), .value(3)])]
        c.graph.outputs = [.init(name: "y", elementType: .float, shape: [.value(1), .value(1)])]
        if hiddenIsOutput { c.graph.outputs.append(.init(name: "h", elementType: .float, shape: [.value(4)])) }
        c.graph.initializers = [
            .init(name: "s13", dims: [2], int64s: [1, 3]), .init(name: "s4", dims: [1], int64s: [4]),
            .init(name: "s14", dims: [2], int64s: [1, 4]),
            .init(name: "W", dims: [4, 3], floats: Array(repeating: 0.5, count: 12)),
            .init(name: "B", dims: [4], floats: [0, 1, 2, 3]),
            .init(name: "W2", dims: [1, 4], floats: [1, 1, 1, 1]), .init(name: "B2", dims: [1], floats: [0]),
        ]
        let transB = ONNXWriter.Attribute("transB", .int(1))
        c.graph.nodes = [
            .init(opType: "Reshape", name: "r1", inputs: ["x", "s13"], outputs: ["r1"]),
            .init(opType: "Gemm", name: "g1", inputs: ["r1", "W", "B"], outputs: ["g1"], attributes: [transB]),
            .init(opType: "Reshape", name: "r2", inputs: ["g1", "s4"], outputs: ["r2"]),
            .init(opType: activation, name: "h", inputs: ["r2"], outputs: ["h"]),
            .init(opType: "Reshape", name: "r3", inputs: ["h", "s14"], outputs: ["r3"]),
            .init(opType: "Gemm", name: "g2", inputs: ["r3", "W2", "B2"], outputs: ["y"], attributes: [transB]),
        ]
        return c
    }

    @Test func reshapesAroundAnActivationAndToTheSameShapeAreLeftOut() {
        var c = Self.networkThenGLM()
        c.simplifyClassicGraph()
        #expect(c.graph.nodes.map(\.opType) == ["Gemm", "Relu", "Gemm"])
        #expect(c.graph.nodes.map(\.inputs) == [["x", "W", "B"], ["g1"], ["h", "W2", "B2"]])
        // The reshape targets went with their nodes.
        #expect(Set(c.graph.initializers.map(\.name)) == ["W", "B", "W2", "B2"])
    }

    /// Softmax is not elementwise (it normalises along an axis), so the reshapes around it stay; a graph output
    /// between them keeps its shape.
    @Test func reshapesStayWhereTheyChangeAnAnswer() {
        var softmax = Self.networkThenGLM(activation: "Softmax")
        softmax.simplifyClassicGraph()
        #expect(softmax.graph.nodes.map(\.opType) == ["Gemm", "Reshape", "Softmax", "Reshape", "Gemm"])
        var output = Self.networkThenGLM(hiddenIsOutput: true)
        output.simplifyClassicGraph()
        #expect(output.graph.nodes.map(\.opType) == ["Gemm", "Reshape", "Relu", "Reshape", "Gemm"])
    }
}
