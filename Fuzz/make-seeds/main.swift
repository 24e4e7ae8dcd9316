// Writes the ONNX and .weights seeds of Fuzz/corpus/ (run once; the seeds are committed):
//   swiftc -parse-as-library -package-name openvision Sources/OpenVisionConverters/**/*.swift \
//       Fuzz/make-seeds/main.swift -o /tmp/make-seeds && /tmp/make-seeds Fuzz/corpus
import Foundation

@main struct MakeSeeds {
    static func main() throws {
        let root = URL(fileURLWithPath: CommandLine.arguments[1])
        func write(_ data: Data, _ path: String) throws { try data.write(to: root.appendingPathComponent(path)) }

        // An Identity model with a symbolic and a fixed dimension, and metadata.
        let shape: [ONNXWriter.Dimension] = [.value(1), .value(3), .param("h"), .value(8)]
        var graph = ONNXWriter.Graph(name: "identity")
        graph.inputs = [ONNXWriter.ValueInfo(name: "images", elementType: .float, shape: shape)]
        graph.outputs = [ONNXWriter.ValueInfo(name: "out", elementType: .float, shape: shape)]
        graph.nodes = [ONNXWriter.Node(opType: "Identity", name: "id", inputs: ["images"], outputs: ["out"])]
        try write(ONNXWriter.Model(graph: graph, metadata: [("names", "{0: 'a'}")]).serialized(), "onnx-reader/identity.onnx")

        // The tiny network of the darknet-weights target, with zero and with ramp weights.
        let cfg = try String(contentsOf: root.appendingPathComponent("darknet-cfg/tiny.cfg"), encoding: .utf8)
        let config = try DarknetConfig(text: cfg, fileName: "tiny.cfg")
        var weights = Data([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        for i in 0..<config.weightFloatCount {
            withUnsafeBytes(of: (Float(i % 7) * 0.1 + 0.05).bitPattern.littleEndian) { weights.append(contentsOf: $0) }
        }
        try write(weights, "darknet-weights/tiny.weights")
        var old = Data([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])  // version 0.1: 32-bit `seen`
        old.append(weights.dropFirst(20))
        try write(old, "darknet-weights/tiny-v01.weights")
        try write(weights.prefix(500), "darknet-weights/tiny-truncated.weights")

        // The converted tiny network: a real graph with initializers, Slice, Concat, metadata.
        var converter = DarknetToONNX(config: config, weights: try DarknetWeights(data: weights, config: config),
                                      classNames: ["one"])
        try write(converter.makeModel().serialized(), "onnx-reader/tiny-darknet.onnx")
    }
}
