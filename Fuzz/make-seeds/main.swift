// Writes the ONNX, .weights, TensorFlow and Caffe seeds of Fuzz/corpus/ (run once; the seeds are committed):
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
        try write(
            ONNXWriter.Model(graph: graph, metadata: [("names", "{0: 'a'}")]).serialized(), "onnx-reader/identity.onnx")

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
        var converter = DarknetToONNX(
            config: config, weights: try DarknetWeights(data: weights, config: config),
            classNames: ["one"])
        try write(converter.makeModel().serialized(), "onnx-reader/tiny-darknet.onnx")

        // Issue 28's ConstantOfShape [1, 84, 5e7] (16.8 GB of float32 in a few hundred bytes).
        var fill = ONNXWriter.Graph(name: "constantofshape")
        fill.inputs = [
            ONNXWriter.ValueInfo(
                name: "images", elementType: .float,
                shape: [.value(1), .value(3), .value(640), .value(640)])
        ]
        fill.outputs = [ONNXWriter.ValueInfo(name: "output0", elementType: .float, shape: [.param("n")])]
        fill.initializers = [ONNXWriter.Tensor(name: "shape", dims: [3], int64s: [1, 84, 50_000_000])]
        fill.nodes = [
            ONNXWriter.Node(
                opType: "ConstantOfShape", name: "fill", inputs: ["shape"], outputs: ["output0"],
                attributes: [.init("value", .tensor(ONNXWriter.Tensor(name: "v", dims: [1], floats: [0])))])
        ]
        try write(ONNXWriter.Model(opsetVersion: 13, graph: fill).serialized(), "onnx-reader/constantofshape.onnx")

        // TensorFlow and Caffe graphs for model-graphs: issue 28's 18-byte self-reading Identity, a frozen
        // Placeholder → Const → Conv2D, and a Caffe 1 × 1 convolution with its two weight blobs.
        var tf = ONNXProtobufEncoder()
        tf.message(1) {
            $0.string(1, "a")
            $0.string(2, "Identity")
            $0.string(3, "a")
        }
        try write(Data(tf.bytes), "model-graphs/self.pb")
        tf = ONNXProtobufEncoder()
        tf.message(1) {
            $0.string(1, "input")
            $0.string(2, "Placeholder")
        }
        tf.message(1) { node in
            node.string(1, "w")
            node.string(2, "Const")
            node.message(5) { entry in
                entry.string(1, "value")
                entry.message(2) {
                    $0.message(8) { t in
                        t.int64(1, 1)
                        t.rawFloats(4, [1, 2, 3])
                    }
                }
            }
        }
        tf.message(1) {
            $0.string(1, "conv")
            $0.string(2, "Conv2D")
            $0.string(3, "input")
            $0.string(3, "w:0")
        }
        try write(Data(tf.bytes), "model-graphs/conv.pb")
        var caffe = ONNXProtobufEncoder()
        caffe.message(100) { layer in
            layer.string(1, "conv")
            layer.string(2, "Convolution")
            layer.string(3, "data")
            layer.string(4, "conv")
            layer.message(7) {
                $0.message(7) { $0.packedInt64(1, [1, 3, 1, 1]) }
                $0.rawFloats(5, [1, 2, 3])
            }
            layer.message(7) {
                $0.int64(1, 1)
                $0.rawFloats(5, [0.5])
            }
        }
        try write(Data(caffe.bytes), "model-graphs/conv.caffemodel")
    }
}
