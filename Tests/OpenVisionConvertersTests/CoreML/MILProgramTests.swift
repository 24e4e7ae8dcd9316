import Foundation
import Testing

@testable import OpenVisionConverters

/// `MILProgram(serialized:)` on programs encoded here field by field (MIL.proto's numbers), on
/// malformed bytes, and the lowering's errors: every input gives a program or a `ConversionError`.
@Suite struct MILProgramTests {
    /// Protobuf encoders of the MIL messages the tests need.
    enum Encode {
        static func message(_ field: Int, _ body: (inout ONNXProtobufEncoder) -> Void) -> [UInt8] {
            var e = ONNXProtobufEncoder()
            e.message(field, body)
            return e.bytes
        }

        /// TensorType {dataType 1, rank 2, dimensions 3 {constant 1 {size 1}}}; nil dims: unknown (2).
        static func tensorType(_ e: inout ONNXProtobufEncoder, _ code: Int64, _ dims: [Int?]) {
            e.message(1) { t in
                t.int64(1, code)
                t.int64(2, Int64(dims.count))
                for d in dims {
                    t.message(3) { dim in
                        if let d { dim.message(1) { $0.int64(1, Int64(d)) } } else { dim.message(2) { _ in } }
                    }
                }
            }
        }

        static func namedType(
            _ e: inout ONNXProtobufEncoder, _ field: Int, _ name: String, _ code: Int64, _ dims: [Int?]
        ) {
            e.message(field) { n in
                n.string(1, name)
                n.message(2) { tensorType(&$0, code, dims) }
            }
        }

        /// A program `main(x: fp32 dims) { y = relu(x) } -> y` with the op type `opType`.
        static func program(
            opType: String = "relu", dims: [Int?] = [1, 3], code: Int64 = 11, opset: String = "CoreML5"
        ) -> [UInt8] {
            var e = ONNXProtobufEncoder()
            e.int64(1, 1)
            e.message(2) { entry in
                entry.string(1, "main")
                entry.message(2) { f in
                    namedType(&f, 1, "x", code, dims)
                    f.string(2, opset)
                    f.message(3) { spec in
                        spec.string(1, opset)
                        spec.message(2) { block in
                            block.string(2, "y")
                            block.message(3) { op in
                                op.string(1, opType)
                                op.message(2) { arg in
                                    arg.string(1, "x")
                                    arg.message(2) { $0.message(1) { $0.string(1, "x") } }
                                }
                                namedType(&op, 3, "y", code, dims)
                            }
                        }
                    }
                }
            }
            return e.bytes
        }
    }

    static func code(_ body: () throws -> Void) -> ConversionError.Code? {
        do {
            try body()
            return nil
        } catch let error as ConversionError { return error.code } catch { return nil }
    }

    @Test func readsAHandEncodedProgram() throws {
        let program = try MILProgram(serialized: Encode.program(dims: [1, nil, 4])[...])
        #expect(program.version == 1 && program.opset == "CoreML5" && program.mainFunctionName == "main")
        #expect(program.mainInputs == [MILValueDescription(name: "x", dataType: "fp32", shape: [1, nil, 4])])
        #expect(program.mainOutputs == [MILValueDescription(name: "y", dataType: "fp32", shape: [1, nil, 4])])
        #expect(program.opCounts == ["relu": 1])
        var graph = ONNXWriter.Graph(name: "g")
        let outputs = try MILToONNX.lower(
            program, blobs: { _ in throw ConversionError(.io, "no weights") }, inputs: ["x": "input"],
            into: &graph, namePrefix: "p/")
        #expect(graph.nodes.map(\.opType) == ["Relu"])
        #expect(graph.nodes[0].inputs == ["input"] && outputs == ["y": "p/y"])
    }

    @Test func namesTheUnsupportedOperation() throws {
        let program = try MILProgram(serialized: Encode.program(opType: "while_loop")[...])
        var graph = ONNXWriter.Graph(name: "g")
        do {
            _ = try MILToONNX.lower(
                program, blobs: { _ in throw ConversionError(.io, "") }, inputs: ["x": "x"], into: &graph,
                namePrefix: "")
            Issue.record("converted")
        } catch let error as ConversionError {
            #expect(error.code == .unsupported)
            #expect(error.message.contains("'while_loop'") && error.message.contains("'y'"), "\(error.message)")
        }
        // A program input without an ONNX value.
        #expect(
            Self.code {
                var g = ONNXWriter.Graph(name: "g")
                _ = try MILToONNX.lower(
                    try MILProgram(serialized: Encode.program()[...]), blobs: { _ in throw ConversionError(.io, "") },
                    inputs: [:], into: &g, namePrefix: "")
            } == .invalidValue)
    }

    @Test func rejectsMalformedPrograms() {
        let good = Encode.program()
        // Truncated anywhere: an error or (cut at a field boundary) a smaller program, never a trap.
        for cut in 0..<good.count {
            if let code = Self.code({ _ = try MILProgram(serialized: good[..<cut]) }) {
                #expect(code == .syntax || code == .limitExceeded, "cut at \(cut)")
            }
        }
        #expect(Self.code { _ = try MILProgram(serialized: [][...]) } == .syntax)  // no function
        #expect(Self.code { _ = try MILProgram(serialized: [0x0A, 0xFF][...]) } == .syntax)  // length beyond the end
        // unknown data type
        #expect(Self.code { _ = try MILProgram(serialized: Encode.program(code: 99)[...]) } == .syntax)
        #expect(Self.code { _ = try MILProgram(serialized: Encode.program(opType: "")[...]) } == .syntax)
        #expect(Self.code { _ = try MILProgram(serialized: Encode.program(dims: [1 << 40])[...]) } == .limitExceeded)
        // The opset names no block.
        var e = ONNXProtobufEncoder()
        e.message(2) { entry in
            entry.string(1, "main")
            entry.message(2) { $0.string(2, "CoreML5") }
        }
        #expect(Self.code { _ = try MILProgram(serialized: e.bytes[...]) } == .syntax)
    }

    @Test func limitsNesting() {
        // A value type nested 100 deep (list of list of …): limitExceeded, not a stack overflow.
        var type = ONNXProtobufEncoder()
        Encode.tensorType(&type, 11, [1])
        for _ in 0..<100 {
            var outer = ONNXProtobufEncoder()
            outer.message(2) { $0.bytes(1, type.bytes) }  // ListType { type = 1 }
            type = outer
        }
        var e = ONNXProtobufEncoder()
        e.message(2) { entry in
            entry.string(1, "main")
            entry.message(2) { f in
                f.message(1) { n in
                    n.string(1, "x")
                    n.bytes(2, type.bytes)
                }
            }
        }
        #expect(Self.code { _ = try MILProgram(serialized: e.bytes[...]) } == .limitExceeded)
    }

    @Test func neverTrapsOnMutatedPrograms() throws {
        // Random single-byte changes of the committed fixture programs (ops/*.pb, with their weights):
        // a program and a graph, or a ConversionError.
        let folder = MILTestSupport.fixtures.appendingPathComponent("ops")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pb") }
            .sorted()
        #expect(names.count > 200)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let weightURL = folder.appendingPathComponent(name.replacingOccurrences(of: ".pb", with: ".bin"))
            let weights = (try? Data(contentsOf: weightURL)).map { [UInt8]($0) }
            for _ in 0..<8 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                var mutated = bytes
                mutated[Int(state >> 33) % mutated.count] = UInt8(truncatingIfNeeded: state >> 17)
                guard let program = try? MILProgram(serialized: mutated[...]) else { continue }
                var graph = ONNXWriter.Graph(name: "g")
                let inputs = Dictionary(uniqueKeysWithValues: program.mainInputs.map { ($0.name, $0.name) })
                _ = try? MILToONNX.lower(
                    program,
                    blobs: { _ in
                        guard let weights else { throw ConversionError(.io, "no weights") }
                        return try MILWeightBlobFile(bytes: weights)
                    }, inputs: inputs, into: &graph, namePrefix: "")
            }
        }
    }
}
