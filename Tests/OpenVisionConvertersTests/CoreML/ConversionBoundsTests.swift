import Foundation
import Testing

@testable import OpenVisionConverters

/// Issue 37, rows 3, 4, 5, 11 and 12: what a conversion materialises is bounded as a whole (`ConversionBudget`), not
/// tensor by tensor; tensors made up from a declared shape are small; layers, ops and nodes are counted; weight
/// paths are canonical, read once, and held inside their package, links resolved.
@Suite struct ConversionBoundsTests {
    /// An N-D network (specification 4) from `layers` (NeuralNetworkLayer messages), input `x` [1] and output `y`.
    static func network(_ layers: [[UInt8]], output: String = "y") -> [UInt8] {
        var model = ONNXProtobufEncoder()
        model.int64(1, 4)
        model.message(2) { d in
            d.message(1) { f in
                f.string(1, "x")
                f.message(3) { t in
                    t.message(5) { a in
                        a.packedInt64(1, [1])
                        a.int64(2, 65568)
                    }
                }
            }
            d.message(10) { f in
                f.string(1, output)
                f.message(3) { t in t.message(5) { a in a.int64(2, 65568) } }
            }
        }
        model.message(500) { nn in
            for layer in layers { nn.bytes(1, layer) }
            nn.int64(5, 1)
            nn.int64(6, 1)
        }
        return model.bytes
    }

    /// A `fillStatic` layer (1085: value 1, targetShape 2) of `shape`.
    static func fill(_ name: String, _ shape: [Int64]) -> [UInt8] {
        var layer = ONNXProtobufEncoder()
        layer.string(1, name)
        layer.string(3, name + "_out")
        layer.message(1085) { p in
            p.float(1, 1)
            p.packedInt64(2, shape)
        }
        return layer.bytes
    }

    /// An `add` layer (880) of `inputs` into `output`.
    static func add(_ name: String, _ inputs: [String], _ output: String) -> [UInt8] {
        var layer = ONNXProtobufEncoder()
        layer.string(1, name)
        for input in inputs { layer.string(2, input) }
        layer.string(3, output)
        layer.message(880) { _ in }
        return layer.bytes
    }

    /// A `loadConstantND` layer (1070: shape 1, data 2) of `count` float32 values.
    static func constant(_ name: String, count: Int) -> [UInt8] {
        var layer = ONNXProtobufEncoder()
        layer.string(1, name)
        layer.string(3, name + "_out")
        layer.message(1070) { c in
            c.packedInt64(1, [Int64(count)])
            c.message(2) { w in w.rawFloats(1, [Float](repeating: 0.5, count: count)) }
        }
        return layer.bytes
    }

    /// The issue's 88-byte file (one fillStatic of [16384, 16384]: 1 GiB of float32 from nothing) and the same as
    /// rangeStatic: refused before anything is allocated, naming the layer.
    @Test func constantsMadeUpFromADeclaredShapeAreSmall() throws {
        let bytes = Self.network([Self.fill("fill0", [16384, 16384]), Self.add("a", ["x"], "y")])
        #expect {
            try CoreMLConverter.onnxData(bytes: bytes)
        } throws: { error in
            let e = error as? ConversionError
            return e?.code == .limitExceeded && e?.message.contains("fill0") == true
                && e?.message.contains("268435456") == true
        }
        var range = ONNXProtobufEncoder()
        range.string(1, "r")
        range.string(3, "r_out")
        range.message(635) { p in
            p.float(1, 268_435_456)
            p.float(2, 0)
            p.float(3, 1)
        }
        #expect(throws: ConversionError.self) {
            try CoreMLConverter.onnxData(bytes: Self.network([range.bytes, Self.add("a", ["x"], "y")]))
        }
        // A fill of 2^22 elements (16 MiB) is within the bound.
        #expect(
            try ConversionBudget.$current.withValue(ConversionBudget(limit: 64 << 20)) {
                try CoreMLConverter.onnxData(
                    bytes: Self.network([
                        Self.fill("small", [1 << 11, 1 << 11]), Self.add("a", ["x", "small_out"], "y"),
                    ]))
            }.count > 16 << 20)
    }

    /// Five 256 KiB constants under a 1 MiB limit: each alone fits, their sum does not; the fifth is refused, named.
    @Test func theLimitHoldsForTheSumOfAConversion() throws {
        let layers = (0..<5).map { Self.constant("c\($0)", count: 1 << 16) } + [Self.add("a", ["x", "c0_out"], "y")]
        let budget = ConversionBudget(limit: 1 << 20)
        #expect {
            try ConversionBudget.$current.withValue(budget) {
                try CoreMLConverter.onnxData(bytes: Self.network(layers))
            }
        } throws: { error in
            let e = error as? ConversionError
            return e?.code == .limitExceeded && e?.message.contains("layer 'c4'") == true
                && e?.message.contains("OPENVISION_MODEL_MEMORY_LIMIT") == true
        }
        #expect(budget.used == 4 << 18)
        // The same under the default limit converts.
        #expect(try CoreMLConverter.onnxData(bytes: Self.network(layers)).count > 5 << 18)
    }

    @Test func theLimitReadsTheEnvironmentAsTheRuntimesDo() {
        #expect(ConversionBudget.memoryLimit([:]) == 4 << 30)
        #expect(ConversionBudget.memoryLimit(["OPENVISION_MODEL_MEMORY_LIMIT": "512M"]) == 512 << 20)
        #expect(ConversionBudget.memoryLimit(["OPENVISION_MODEL_MEMORY_LIMIT": "2G "]) == 2 << 30)
        #expect(ConversionBudget.memoryLimit(["OPENVISION_MODEL_MEMORY_LIMIT": "1k"]) == 4 << 30)  // below 64 MiB
        #expect(ConversionBudget.memoryLimit(["OPENVISION_MODEL_MEMORY_LIMIT": "0x40000000"]) == 4 << 30)
    }

    /// Layers past `CoreMLLimits.layers` (50,000; TensorFlow graphs' bound): refused while reading.
    @Test func layerCountsAreBounded() throws {
        let layer = Self.add("a", ["x", "x"], "x")
        let bytes = Self.network(Array(repeating: layer, count: CoreMLLimits.layers + 1))
        #expect { try CoreMLSpec(bytes: bytes) } throws: { error in
            (error as? ConversionError)?.code == .limitExceeded && "\(error)".contains("50000")
        }
    }

    @Test func programOperationsAreBounded() throws {
        var text = "program(1.0)\n{\n    func main<ios16>(tensor<fp32, [1]> x) {\n"
        for i in 0...MILLimits.maximumOperations {
            text +=
                "        tensor<fp32, [1]> t\(i) = relu(x = \(i == 0 ? "x" : "t\(i - 1)"))[name = string(\"t\(i)\")];\n"
        }
        text += "    } -> (t\(MILLimits.maximumOperations));\n}\n"
        #expect { try MILProgram(text: text) } throws: { error in (error as? ConversionError)?.code == .limitExceeded }
    }

    @Test func onnxNodesAreBounded() throws {
        var graph = ONNXWriter.Graph(name: "chain")
        graph.inputs = [ONNXWriter.ValueInfo(name: "n0", elementType: .float, shape: [.value(1)])]
        graph.nodes = (0...ONNXStaticTensors.maximumNodes).map {
            ONNXWriter.Node(opType: "Relu", name: "r\($0)", inputs: ["n\($0)"], outputs: ["n\($0 + 1)"])
        }
        graph.outputs = [
            ONNXWriter.ValueInfo(
                name: "n\(ONNXStaticTensors.maximumNodes + 1)", elementType: .float, shape: [.value(1)])
        ]
        let data = ONNXWriter.Model(graph: graph).serialized()
        #expect { try ONNXStaticTensors(data: data) } throws: { error in
            (error as? ConversionError)?.code == .limitExceeded
        }
    }

    /// What a runtime materialises at load: initializers, and constant-only nodes twice (folded, then kept).
    /// Sizes: 10 × 10 float32 = 400 bytes; ConstantOfShape [1000, 1000] of float32 = 4,000,000 bytes, twice.
    @Test func onnxLoadBytesSumInitializersAndFoldedConstants() throws {
        var graph = ONNXWriter.Graph(name: "g")
        graph.inputs = [ONNXWriter.ValueInfo(name: "x", elementType: .float, shape: [.value(1)])]
        graph.initializers = [
            ONNXWriter.Tensor(name: "w", dims: [10, 10], floats: [Float](repeating: 1, count: 100)),
            ONNXWriter.Tensor(name: "shape", dims: [2], int64s: [1000, 1000]),
        ]
        graph.nodes = [
            ONNXWriter.Node(
                opType: "ConstantOfShape", name: "c", inputs: ["shape"], outputs: ["big"],
                attributes: [.init("value", .tensor(ONNXWriter.Tensor(name: "v", dims: [1], floats: [0])))]),
            // An Expand of a graph input: sized at run time, not folded.
            ONNXWriter.Node(opType: "Expand", name: "e", inputs: ["x", "shape"], outputs: ["y"]),
        ]
        graph.outputs = [ONNXWriter.ValueInfo(name: "y", elementType: .float, shape: [.param("n")])]
        let tensors = try ONNXStaticTensors(data: ONNXWriter.Model(opsetVersion: 13, graph: graph).serialized())
        #expect(tensors.loadBytes == 400 + 16 + 2 * 4_000_000)
        #expect(tensors.largest?.bytes == 4_000_000)
        #expect(tensors.nodeCount == 2)
    }

    /// A weight file named by several spellings (`@model_path/./weights/…`, `weights//…`, a link) is read once:
    /// the reader's budget is charged its size once.
    @Test func weightPathsAreCanonicalAndReadOnce() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let weights = dir.appendingPathComponent("weights")
        try FileManager.default.createDirectory(at: weights, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 4096).write(to: weights.appendingPathComponent("weight.bin"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("alias").path, withDestinationPath: "weights")
        let budget = ConversionBudget(limit: 1 << 30)
        let reader = CoreMLSource.blobReader(root: dir)
        let reads = try ConversionBudget.$current.withValue(budget) {
            try [
                "@model_path/weights/weight.bin", "@model_path/./weights/weight.bin", "@model_path/weights//weight.bin",
                "@model_path/alias/../weights/weight.bin", "@model_path/alias/weight.bin",
            ].map { try reader($0) }
        }
        #expect(reads.allSatisfy { $0.count == 4096 })
        #expect(budget.used == 4096)
    }

    /// A link inside a package that leads out of it (`weight.bin` → /etc/passwd) is refused, and no byte of the
    /// file it points to is in the message (the version check quoted bytes 4–7).
    @Test func linksOutOfAPackageAreRefused() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let weights = dir.appendingPathComponent("weights")
        try FileManager.default.createDirectory(at: weights, withIntermediateDirectories: true)
        let outside = dir.deletingLastPathComponent().appendingPathComponent("ov-outside-\(UUID()).bin")
        try Data("root:x:0:0:secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(
            atPath: weights.appendingPathComponent("weight.bin").path,
            withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("up").path, withDestinationPath: "..")
        for reference in ["@model_path/weights/weight.bin", "@model_path/up/\(outside.lastPathComponent)"] {
            #expect {
                _ = try CoreMLSource.blobReader(root: dir)(reference)
            } throws: { error in
                let e = error as? ConversionError
                return e?.code == .syntax && e?.message.contains("through a symbolic link") == true
            }
        }
        // A weight file that is not blob storage version 2: the message does not quote its bytes.
        #expect {
            _ = try MILWeightBlobFile(
                bytes: [UInt8](
                    "root:x:0:0:secret, and enough more bytes to pass the 64 bytes of the header of a weight file.".utf8
                ))
        } throws: { error in !"\(error)".contains("809") && "\(error)".contains("version 2") }
    }
}
