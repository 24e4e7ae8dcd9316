import Foundation
import Testing

@testable import OpenVisionConverters

/// `MILProgram(text:)`: the `model.mil` renderings of fixture programs (ops/*.mil, written by
/// scripts/models/coreml_mil_fixtures.py's `mil_text` in both the program(1.0) and program(1.3)
/// spellings) must give the same program and the same ONNX graph as the protobuf they render; hand
/// written programs in the forms public model.mil files show; and malformed text.
@Suite struct MILTextTests {
    static let ops = MILTestSupport.fixtures.appendingPathComponent("ops")
    static let renderings = ((try? FileManager.default.contentsOfDirectory(atPath: ops.path)) ?? [])
        .filter { $0.hasSuffix(".mil") }.map { String($0.dropLast(4)) }.sorted()

    static func lowered(_ program: MILProgram, weights: URL) throws -> [UInt8] {
        var graph = ONNXWriter.Graph(name: "g")
        let inputs = Dictionary(uniqueKeysWithValues: program.mainInputs.map { ($0.name, $0.name) })
        _ = try MILToONNX.lower(
            program, blobs: { _ in try MILWeightBlobFile(bytes: [UInt8](try Data(contentsOf: weights))) },
            inputs: inputs, into: &graph, namePrefix: "")
        return [UInt8](ONNXWriter.Model(opsetVersion: MILToONNX.opsetVersion, graph: graph).serialized())
    }

    @Test func renderingsCoverBothSpellings() {
        #expect(Self.renderings.count >= 30)
    }

    @Test(arguments: renderings)
    func textGivesTheProtobufsProgram(_ name: String) throws {
        let text = try String(contentsOf: Self.ops.appendingPathComponent("\(name).mil"), encoding: .utf8)
        let fromText = try MILProgram(text: text)
        let fromProto = try MILProgram(
            serialized: [UInt8](try Data(contentsOf: Self.ops.appendingPathComponent("\(name).pb")))[...])
        #expect(fromText.opset == fromProto.opset)
        #expect(fromText.mainInputs == fromProto.mainInputs)
        #expect(fromText.mainOutputs == fromProto.mainOutputs)
        #expect(fromText.opCounts == fromProto.opCounts)
        let weights = Self.ops.appendingPathComponent("\(name).bin")
        if name.hasPrefix("unsupported_") {
            #expect(throws: ConversionError.self) { _ = try Self.lowered(fromText, weights: weights) }
            return
        }
        #expect(
            try Self.lowered(fromText, weights: weights) == Self.lowered(fromProto, weights: weights),
            "\(name): the graphs differ")
    }

    /// The forms of public model.mil files: verbose scalars, BLOBFILE in both spellings, hex floats,
    /// a one-literal vector, `?` sizes, variadic arguments, multiple outputs, comments, function attributes.
    @Test func readsHandWrittenText() throws {
        let text = """
            program(1.0)
            [buildInfo = dict<tensor<string, []>, tensor<string, []>>({{"coremlc-component-MIL", "5.33.5"}, {"coremlc-version", "1877.40.3"}})]
            {
                func main<ios16>(tensor<fp16, [1, ?, 4]> x, tensor<int32, [2]> k)[FlexibleShapeInformation = tuple<tuple<tensor<string, []>, dict<tensor<string, []>, tensor<int32, [?]>>>>((("DefaultShapes", {{"x", [1, 2, 4]}})))] {
                    // scalars, both spellings
                    tensor<fp16, []> eps = const()[name = tensor<string, []>("eps"), val = tensor<fp16, []>(0x1.5p-17)];
                    fp16 half = const()[name = string("half"), val = fp16(0x1p-1)];
                    tensor<int32, [1]> axes = const()[name = string("axes"), val = tensor<int32, [1]>(-1)];
                    tensor<fp16, [1, ?, 4]> y = layer_norm(axes = axes, epsilon = eps, x = x)[name = string("y")];
                    tensor<fp16, [1, ?, 4]> z = mul(x = y, y = half)[name = string("z")];
                    tensor<fp16, [1, ?, 8]> c = concat(axis = int32(-1), interleave = bool(false), values = (y, z))[name = string("c")];
                    tensor<fp16, [1, ?, 2]> a, tensor<fp16, [1, ?, 6]> b = split(axis = int32(2), split_sizes = tensor<int32, [2]>([2, 6]), x = c)[name = string("s")];
                    tensor<fp16, [4, 2]> w = const()[name = string("w"), val = tensor<fp16, [4, 2]>(BLOBFILE(path = string("@model_path/weights/weight.bin"), offset = uint64(64)))];
                    tensor<fp16, [2]> v = const()[name = tensor<string, []>("v"), val = tensor<fp16, [2]>(BLOBFILE(path = tensor<string, []>("@model_path/weights/weight.bin"), offset = tensor<uint64, []>(128)))];
                } -> (a, b);
            }
            """
        let program = try MILProgram(text: text)
        #expect(program.version == 1 && program.opset == "ios16")
        #expect(
            program.mainInputs == [
                MILValueDescription(name: "x", dataType: "fp16", shape: [1, nil, 4]),
                MILValueDescription(name: "k", dataType: "int32", shape: [2]),
            ])
        #expect(program.mainOutputs.map(\.name) == ["a", "b"] && program.mainOutputs[1].shape == [1, nil, 6])
        #expect(program.opCounts == ["const": 5, "layer_norm": 1, "mul": 1, "concat": 1, "split": 1])
        let ops = try #require(program.main.block?.operations)
        let eps = try #require(ops.first { $0.outputs.first?.name == "eps" }?.attributes["val"])
        guard case .immediate(.tensor(.doubles(let e))) = eps.content else {
            Issue.record("eps: \(eps.content)")
            return
        }
        #expect(e == [0x1.5p-17])
        let concat = try #require(ops.first { $0.type == "concat" })
        #expect(concat.inputs["values"]?.count == 2)
        let w = try #require(ops.first { $0.outputs.first?.name == "v" }?.attributes["val"])
        guard case .blob(let file, let offset) = w.content else {
            Issue.record("v: \(w.content)")
            return
        }
        #expect(file == "@model_path/weights/weight.bin" && offset == 128)
        #expect(program.defaultShapes == ["x": [1, 2, 4]])
        #expect(program.attributes["buildInfo"] != nil)
    }

    @Test func reportsTheLineOfAnError() {
        func message(_ text: String) -> String? {
            do {
                _ = try MILProgram(text: text)
                return nil
            } catch let error as ConversionError { return "\(error.code) \(error.message)" } catch { return nil }
        }
        let good =
            "program(1.3)\n{\n  func main<ios18>(fp32 x) {\n    fp32 y = relu(x = x)[name = string(\"y\")];\n  } -> (y);\n}\n"
        #expect(message(good) == nil)
        #expect(
            message(good.replacingOccurrences(of: "relu(x = x)", with: "relu(x = x"))
                == "syntax model.mil:4: expected ')', found '['")
        #expect(message(good.replacingOccurrences(of: "string(\"y\")", with: "string(\"y)")) != nil)
        #expect(
            message(good.replacingOccurrences(of: "fp32 x", with: "fp33 x"))
                == "syntax model.mil:3: unknown type 'fp33'")
        #expect(message(good + "junk") == "syntax model.mil:7: unexpected text after the program")
        #expect(message("") == "syntax model.mil:1: expected 'program'")
        #expect(message(good.replacingOccurrences(of: "main", with: "other")) == nil)  // the only function is the entry
        let deep =
            "program(1.0) { func main<ios16>(" + String(repeating: "list<", count: 60) + "fp32"
            + String(repeating: ", 1>", count: 60) + " x) { } -> (); }"
        #expect(message(deep)?.hasPrefix("limitExceeded") == true)
        // Every prefix of a valid program: an error, never a trap.
        for cut in stride(from: 0, to: good.count, by: 3) {
            _ = message(String(good.prefix(cut)))
        }
    }
}
