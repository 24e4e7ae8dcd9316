import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@testable import OpenVisionConverters

/// ML Program operations lowered to ONNX (`MILToONNX`) and run by ONNX Runtime, one tiny program per
/// operation, compression form or numeric policy, against the source math. The fixtures
/// (Tests/Fixtures/coreml-mil) were written by
///
///     /work/venvs/coremltools-mil/bin/python scripts/models/coreml_mil_fixtures.py
///
/// (coremltools 9.0's MIL builder and `ct.convert`, `coremltools.optimize.coreml` for compressed weights;
/// expected outputs from coremltools' own numpy definitions of each op — `value_inference`,
/// `materialized_val_inference` — or the script's numpy references written from the op documentation).
/// Every output value must agree within the fixture's tolerance (1e-5 … 1e-4, relative to max(1, |x|)).
@Suite struct MILOperationTests {
    struct Values: Decodable {
        var name: String
        var shape: [Int]
        var values: [Float]
        var dtype: String?
    }

    struct Fixture: Decodable {
        var target: String
        var weights: Bool
        var inputs: [Values]
        var outputs: [Values]?
        var tolerance: Double?
        var unsupported: String?
        var note: String?
    }

    struct Catalogue: Decodable {
        var fixtures: [String: Fixture]
    }

    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml-mil")
    static let catalogue: Catalogue = {
        // A missing or unreadable catalogue makes every test fail on its fixture lookup.
        (try? JSONDecoder().decode(Catalogue.self, from: Data(contentsOf: folder.appendingPathComponent("ops.json"))))
            ?? Catalogue(fixtures: [:])
    }()
    static let names = catalogue.fixtures.keys.sorted()

    static func program(_ name: String) throws -> (MILProgram, (String) throws -> MILWeightBlobFile) {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("ops/\(name).pb")))
        let weights = folder.appendingPathComponent("ops/\(name).bin")
        return (
            try MILProgram(serialized: bytes[...]),
            { _ in try MILWeightBlobFile(bytes: [UInt8](try Data(contentsOf: weights))) }
        )
    }

    /// The catalogue is read (a missing ops.json would leave the parameterized test without cases).
    @Test func catalogueHasEveryFixture() {
        #expect(Self.names.count >= 231)
        #expect(Self.catalogue.fixtures.values.filter { $0.unsupported != nil }.count == 2)
    }

    /// An Xcode-compiled ML Program folder (`model.mil` text + `weights/weight.bin`, no metadata.json) loads through
    /// `VisionModel` (CompiledProgram: inputs and outputs from the program's `main`) and answers the fixture's
    /// numpy reference as the protobuf does.
    @Test(arguments: ["fp16_conv_relu", "linear", "ios16_palettize_uniform_4bit"])
    func xcodeCompiledFolderMatchesSourceMath(_ name: String) throws {
        let fixture = try #require(Self.catalogue.fixtures[name])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ov-mil-\(UUID()).mlmodelc")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("weights"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("ops/\(name).mil"), to: folder.appendingPathComponent("model.mil"))
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("ops/\(name).bin"),
            to: folder.appendingPathComponent("weights/weight.bin"))
        var configuration = VisionModel.Configuration()
        configuration.threads = 1
        configuration.backend = .onnxRuntime
        let model = try VisionModel(contentsOf: folder, configuration: configuration)
        #expect(model.modelDescription.format == .coreML && model.modelDescription.coreML?.modelType == "mlProgram")
        let outputs = try model.prediction(
            from: fixture.inputs.map { Tensor(name: $0.name, shape: $0.shape, scalars: $0.values) })
        let expected = try #require(fixture.outputs)
        try #require(outputs.count == expected.count)
        let tolerance = Float(fixture.tolerance ?? 1e-5)
        for (output, reference) in zip(outputs, expected) {
            try #require(
                output.scalars.count == reference.values.count, "\(name) \(output.name): shape \(output.shape)")
            let worst = zip(output.scalars, reference.values).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
            #expect(
                worst <= tolerance, "\(name) \(output.name): max |ONNX − reference| / max(1, |reference|) = \(worst)")
        }
    }

    @Test(arguments: names)
    func operationMatchesSourceMath(_ name: String) throws {
        let fixture = try #require(Self.catalogue.fixtures[name])
        let (program, blobs) = try Self.program(name)
        if let op = fixture.unsupported {
            do {
                _ = try MILTestModels.onnxFile(program, blobs: blobs)
                Issue.record("\(name): '\(op)' converted; expected .unsupported")
            } catch let error as ConversionError {
                #expect(error.code == .unsupported, "\(error)")
                #expect(error.message.contains("'\(op)'"), "\(error)")
            }
            return
        }
        let url = try MILTestModels.onnxFile(program, blobs: blobs)
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = VisionModel.Configuration()
        configuration.threads = 1
        configuration.backend = .onnxRuntime
        let model = try VisionModel(contentsOf: url, configuration: configuration)
        let inputs = fixture.inputs.map { Tensor(name: $0.name, shape: $0.shape, scalars: $0.values) }
        let outputs = try model.prediction(from: inputs)
        let expected = try #require(fixture.outputs)
        try #require(outputs.count == expected.count, "\(name): \(outputs.map(\.name)) vs \(expected.map(\.name))")
        let tolerance = Float(fixture.tolerance ?? 1e-5)
        for (output, reference) in zip(outputs, expected) {
            #expect(output.name == reference.name)
            #expect(
                output.shape.reduce(1, *) == reference.values.count,
                "\(name) \(output.name): shape \(output.shape) vs \(reference.shape)")
            try #require(output.scalars.count == reference.values.count)
            var worst: Float = 0
            for (a, b) in zip(output.scalars, reference.values) {
                worst = max(worst, abs(a - b) / max(1, abs(b)))
            }
            #expect(
                worst <= tolerance, "\(name) \(output.name): max |ONNX − reference| / max(1, |reference|) = \(worst)")
        }
    }
}
