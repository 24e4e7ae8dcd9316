import Foundation
import Testing

@testable import OpenVisionConverters

/// The hand-written FlatBuffer reader and the TFLite → ONNX converter on the committed tiny graphs
/// (Tests/Fixtures/tflite/ops, written by scripts/models/tflite_fixtures.py), and on bytes that are not
/// TFLite: every input gives a model or a `ConversionError`, never a trap.
@Suite struct TFLiteReaderTests {
    static let ops = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/tflite/ops")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: ops.appendingPathComponent("\(name).tflite")))
    }

    @Test func readsATinyGraph() throws {
        let model = try TFLiteModel(bytes: Self.bytes("dequantize_fp16_conv"))
        #expect(model.operators.map { model.operatorCodes[$0.opcodeIndex].name } == ["DEQUANTIZE", "CONV_2D"])
        #expect(model.inputs.map { model.tensors[$0].name } == ["input"])
        #expect(model.outputs.map { model.tensors[$0].shape } == [[1, 7, 9, 6]])
        let weights = try #require(model.tensors.first { $0.name == "w_fp16" })
        #expect(weights.type == .float16 && weights.shape == [6, 1, 1, 4])
        #expect(model.bufferBytes(weights.buffer).count == 6 * 4 * 2)
    }

    @Test func readsSparsity() throws {
        let model = try TFLiteModel(bytes: Self.bytes("densify_dequantize_conv"))
        let sparse = try #require(model.tensors.first { $0.name == "w_sparse" }?.sparsity)
        #expect(sparse.traversalOrder == [0, 1, 2, 3])
        #expect(sparse.dimensions.map(\.isSparse) == [false, false, false, true])
        #expect(sparse.dimensions[3].segments.count == 7)
    }

    @Test func convertedGraphKeepsTFLiteBoundaries() throws {
        let onnx = try TFLiteConverter.onnxData(bytes: Self.bytes("concatenation_channels"))
        let info = try ONNXModelInfo(data: onnx)
        #expect(info.inputs.map(\.name) == ["input", "input2"])
        #expect(info.inputs.map(\.shape) == [[1, 7, 9, 4], [1, 7, 9, 3]])
        #expect(info.outputs.map(\.name) == ["y"])
        #expect(info.outputs.map(\.shape) == [[1, 7, 9, 7]])
        #expect(info.metadata["source"] == "tflite")
    }

    @Test func unsupportedOperatorIsNamed() throws {
        #expect {
            try TFLiteConverter.onnxData(bytes: Self.bytes("unsupported_sin"))
        } throws: { error in
            guard let error = error as? ConversionError else { return false }
            return error.code == .unsupported && error.message.contains("operator 1 (SIN)")
        }
    }

    @Test func notTFLiteIsASyntaxError() {
        for bytes: [UInt8] in [
            [], [1, 2, 3], Array("\u{89}PNG\r\n\u{1A}\n....".utf8), [0, 0, 0, 0] + Array("TFL3".utf8),
        ] {
            #expect(throws: ConversionError.self) { try TFLiteModel(bytes: bytes) }
        }
    }

    /// Deterministic corruption of a real tiny model: three single-byte changes at every offset, and every truncation.
    @Test func corruptBytesNeverTrap() throws {
        let original = try Self.bytes("densify_dequantize_conv")
        var parsed = 0
        for i in 0..<original.count {
            for value: UInt8 in [0, 0xFF, original[i] &+ 1] {
                var bytes = original
                bytes[i] = value
                if (try? TFLiteConverter.onnxData(bytes: bytes)) != nil { parsed += 1 }
            }
            // Every truncation converts or throws; those that cut into the root tables throw.
            let truncated = Array(original.prefix(i))
            if i < original.count / 2 {
                #expect(throws: ConversionError.self) { try TFLiteConverter.onnxData(bytes: truncated) }
            } else {
                _ = try? TFLiteConverter.onnxData(bytes: truncated)
            }
        }
        #expect(parsed > 0)  // changes in weights' values still convert
    }

    @Test func sha256KnownAnswers() {
        // FIPS 180-4 examples; python3 -c "import hashlib; print(hashlib.sha256(b'abc').hexdigest())"
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func halfPrecision() {
        #expect(TFLiteToONNX.halfToFloat(0x3C00) == 1)
        #expect(TFLiteToONNX.halfToFloat(0xC000) == -2)
        #expect(TFLiteToONNX.halfToFloat(0x7BFF) == 65504)
        #expect(TFLiteToONNX.halfToFloat(0x0001) == 0x1p-24)
        #expect(TFLiteToONNX.halfToFloat(0x7C00) == .infinity)
        #expect(TFLiteToONNX.halfToFloat(0x7E00).isNaN)
    }
}
