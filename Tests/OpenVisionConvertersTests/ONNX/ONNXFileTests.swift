import Foundation
import Testing

@testable import OpenVisionConverters

/// The converters' and readers' one way to write and read ONNX files, through their public entry points.
@Suite struct ONNXFileTests {
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onnxfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func writesAtomicallyAndReadsBack() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = ONNXReaderTests.identityModel(shape: [.value(1), .value(3), .value(8), .value(8)])
        let url = folder.appendingPathComponent("identity.onnx")
        try ONNXFile.write(model, to: url)
        #expect(try Data(contentsOf: url) == model)
        #expect(try ONNXModelInfo(url: url).inputs.first?.shape == [1, 3, 8, 8])
        // The identity graph's only fixed size besides its input is its output: 1×3×8×8 floats.
        let largest = try ONNXStaticTensors(url: url).largest
        #expect(largest?.name == "out" && largest?.source == "output")
        #expect(largest?.shape == [1, 3, 8, 8] && largest?.bytes == 768)
    }

    @Test func aMissingFolderIsAnIOErrorNamingIt() throws {
        let folder = try Self.temporaryFolder().appendingPathComponent("absent")
        let output = folder.appendingPathComponent("model.onnx")
        let cfg = SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.cfg")
        let weights = SharedFiles.models.appendingPathComponent("yolo-fastest-1.1.weights")
        do {
            try DarknetConverter.convert(cfg: cfg, weights: weights, names: nil, to: output)
            Issue.record("wrote into a folder that does not exist")
        } catch let error as ConversionError {
            #expect(error.code == .io)
            #expect(error.message == "cannot write the ONNX model: the folder \(folder.path) does not exist")
            #expect(error.file == output.path)
        }
    }

    @Test func readErrorsNameTheFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.onnx")
        let unreadable = #expect(throws: ConversionError.self) { _ = try ONNXModelInfo(url: missing) }
        #expect(unreadable?.code == .io)
        #expect(unreadable?.file == missing.path)
        let broken = folder.appendingPathComponent("broken.onnx")
        try Data([0xFF]).write(to: broken)
        let errors = [
            #expect(throws: ConversionError.self) { _ = try ONNXModelInfo(url: broken) },
            #expect(throws: ConversionError.self) { _ = try ONNXStaticTensors(url: broken) },
        ]
        for error in errors {
            #expect(error?.code == .syntax)
            #expect(error?.message.hasPrefix("broken.onnx ") == true)
        }
    }
}
