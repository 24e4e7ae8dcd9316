import Foundation
import OpenVision
import Testing

@testable import OpenVisionConverters

/// Issue 28, item 11: TensorFlow and Caffe files are checked before OpenCV reads them. Real graphs
/// still load and compute (the reference is arithmetic: a 1 × 1 convolution with weights 1, 2, 3 of
/// the pixel (1, 2, 3) is 1 + 4 + 9 = 14); a graph OpenCV would loop on is refused.
@Suite struct TextGraphModelTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-graph-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// An input of 4 × 4 pixels (1, 2, 3).
    static let input = Tensor(
        name: "input", shape: [1, 3, 4, 4],
        scalars: [Float](repeating: 1, count: 16) + [Float](repeating: 2, count: 16) + [Float](repeating: 3, count: 16))

    /// One NodeDef attribute (`attr` map entry: key 1, AttrValue 2).
    static func attr(_ e: inout ONNXProtobufEncoder, _ key: String, _ value: (inout ONNXProtobufEncoder) -> Void) {
        e.message(5) { entry in
            entry.string(1, key)
            entry.message(2, value)
        }
    }

    /// Placeholder → Conv2D (NHWC, 1 × 1 × 3 × 1 kernel [1, 2, 3], VALID) as TensorFlow freezes it.
    static func convolutionGraph() -> Data {
        var e = ONNXProtobufEncoder()
        e.message(1) { n in
            n.string(1, "input")
            n.string(2, "Placeholder")
            attr(&n, "dtype") { $0.int64(6, 1) }
        }
        e.message(1) { n in
            n.string(1, "w")
            n.string(2, "Const")
            attr(&n, "dtype") { $0.int64(6, 1) }
            attr(&n, "value") { value in
                value.message(8) { tensor in  // TensorProto: dtype 1, tensor_shape 2 (dim 2: size 1), tensor_content 4
                    tensor.int64(1, 1)
                    tensor.message(2) { shape in
                        for size in [1, 1, 3, 1] { shape.message(2) { $0.int64(1, Int64(size)) } }
                    }
                    tensor.rawFloats(4, [1, 2, 3])
                }
            }
        }
        e.message(1) { n in
            n.string(1, "conv")
            n.string(2, "Conv2D")
            n.string(3, "input")
            n.string(3, "w")
            attr(&n, "T") { $0.int64(6, 1) }
            attr(&n, "strides") { $0.message(1) { $0.packedInt64(3, [1, 1, 1, 1]) } }
            attr(&n, "padding") { $0.string(2, "VALID") }
            attr(&n, "data_format") { $0.string(2, "NHWC") }
        }
        return Data(e.bytes)
    }

    @Test func tensorFlowGraphLoadsAndComputes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pb = dir.appendingPathComponent("net.pb")
        try Self.convolutionGraph().write(to: pb)
        let out = try #require(try VisionModel(contentsOf: pb).prediction(from: [Self.input]).first)
        #expect(
            out.shape == [1, 1, 4, 4] && out.scalars.allSatisfy { abs($0 - 14) < 1e-5 }, "\(out.shape) \(out.scalars)")
    }

    @Test func tensorFlowCyclesAreRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The 18-byte .pb whose Identity node reads itself.
        var e = ONNXProtobufEncoder()
        e.message(1) {
            $0.string(1, "a")
            $0.string(2, "Identity")
            $0.string(3, "a")
        }
        let pb = dir.appendingPathComponent("self.pb")
        try Data(e.bytes).write(to: pb)
        #expect { _ = try VisionModel(contentsOf: pb) } throws: { error in
            let error = error as! VisionError
            return error.code == .invalidModel
                && error.message == "self.pb: node 'a' (Identity) reads its own output: the graph has a cycle"
        }
        // A valid .pb with a text graph beside it whose nodes loop.
        try Self.convolutionGraph().write(to: dir.appendingPathComponent("net.pb"))
        try
            "node { name: \"input\" op: \"Placeholder\" }\nnode { name: \"a\" op: \"Relu\" input: \"b\" }\nnode { name: \"b\" op: \"Relu\" input: \"a\" }\n"
            .write(to: dir.appendingPathComponent("net.pbtxt"), atomically: true, encoding: .utf8)
        #expect { _ = try VisionModel(contentsOf: dir.appendingPathComponent("net.pb")) } throws: { error in
            let error = error as! VisionError
            return error.code == .invalidModel && error.message.hasPrefix("net.pbtxt:2: the graph has a cycle")
        }
    }

    /// A Caffe 1 × 1 convolution (weights [1, 2, 3], bias 0.5); a weight blob that does not hold its shape is refused.
    @Test func caffeNetLoadsAndComputes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        name: "conv"
        input: "data"
        input_shape { dim: 1 dim: 3 dim: 4 dim: 4 }
        layer { name: "conv" type: "Convolution" bottom: "data" top: "conv" convolution_param { num_output: 1 kernel_size: 1 } }
        """.write(to: dir.appendingPathComponent("net.prototxt"), atomically: true, encoding: .utf8)
        func model(weights: [Float]) -> Data {
            var e = ONNXProtobufEncoder()
            e.message(100) { layer in
                layer.string(1, "conv")
                layer.string(2, "Convolution")
                layer.string(3, "data")
                layer.string(4, "conv")
                layer.message(7) {
                    $0.message(7) { $0.packedInt64(1, [1, 3, 1, 1]) }
                    $0.rawFloats(5, weights)
                }
                layer.message(7) {
                    $0.message(7) { $0.packedInt64(1, [1]) }
                    $0.rawFloats(5, [0.5])
                }
            }
            return Data(e.bytes)
        }
        let caffemodel = dir.appendingPathComponent("net.caffemodel")
        try model(weights: [1, 2, 3]).write(to: caffemodel)
        let out = try #require(try VisionModel(contentsOf: caffemodel).prediction(from: [Self.input]).first)
        #expect(out.shape == [1, 1, 4, 4] && out.scalars.allSatisfy { abs($0 - 14.5) < 1e-5 }, "\(out.scalars)")
        try model(weights: [1, 2]).write(to: caffemodel)
        #expect { _ = try VisionModel(contentsOf: caffemodel) } throws: { error in
            let error = error as! VisionError
            return error.code == .invalidModel
                && error.message.contains("blob 0 of layer 'conv' declares 3 values and holds 2")
        }
    }
}
