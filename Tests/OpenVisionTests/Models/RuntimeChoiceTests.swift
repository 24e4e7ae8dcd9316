import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `BackendChoice.automatic` on ONNX graphs (`RuntimeChoice`): ONNX Runtime or OpenVINO by a timed warm-up, only when
/// their outputs agree within 1e-4 relative, kept in the cache (issue 35). Each test keeps its choices in a folder of
/// its own (`RuntimeChoice.$cacheHome`).
@Suite struct RuntimeChoiceTests {
    static func configuration(_ backend: BackendChoice = .automatic) -> VisionModel.Configuration {
        var configuration = VisionModel.Configuration()
        configuration.backend = backend
        configuration.threads = 1
        return configuration
    }

    /// A model loaded with the choices kept under `home`.
    static func load(_ name: String, home: URL, _ backend: BackendChoice = .automatic) throws -> VisionModel {
        let url = try #require(ModelLocator.find(name), "\(name) is installed by scripts/setup")
        return try RuntimeChoice.$cacheHome.withValue(home) {
            try VisionModel(contentsOf: url, configuration: configuration(backend))
        }
    }

    static func choiceFiles(_ home: URL) -> [URL] {
        let folder = home.appendingPathComponent("openvision/runtime")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".choice")
        }.map { folder.appendingPathComponent($0) }
    }

    /// The first load times both runtimes and keeps the choice (a private folder, a record that reads back); the second
    /// reads it and times nothing; the runtime serving the model is the one recorded.
    @Test(.enabled(if: RequiredTools.runs(OpenVINOLibrary.installed)))
    func choiceIsMadeAndCached() throws {
        let home = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try Self.load("iris_landmark.tflite", home: home)
        let decision = try #require(first.runtimeDecision)
        #expect(!decision.cached)
        // The iris model's outputs agree (OpenVINOBackendTests), so both were timed.
        #expect(decision.onnxRuntimeMilliseconds != nil && decision.openVINOMilliseconds != nil, "\(decision)")
        #expect(decision.reason == "faster" || decision.reason == "not faster", "\(decision.reason)")
        #expect(first.modelDescription.backend.hasPrefix(decision.runtime == .openVINO ? "openvino" : "onnxruntime"))
        let files = Self.choiceFiles(home)
        try #require(files.count == 1, "\(files)")
        var info = stat()
        #expect(lstat(files[0].deletingLastPathComponent().path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let entry = try #require(RuntimeChoice.Entry(bytes: Array(try Data(contentsOf: files[0]))))
        #expect(entry.decision.runtime == decision.runtime && entry.decision.reason == decision.reason)
        // Kept to 4 decimals (milliseconds).
        #expect(abs((entry.decision.onnxRuntimeMilliseconds ?? -1) - (decision.onnxRuntimeMilliseconds ?? 0)) < 1e-3)
        #expect(abs((entry.decision.openVINOMilliseconds ?? -1) - (decision.openVINOMilliseconds ?? 0)) < 1e-3)
        #expect(entry.key.threads == 1 && entry.key.machine == RuntimeChoice.machine)

        let second = try Self.load("iris_landmark.tflite", home: home)
        let cached = try #require(second.runtimeDecision)
        #expect(cached.cached)
        #expect(cached.runtime == decision.runtime && cached.reason == decision.reason)
        #expect(second.modelDescription.backend == first.modelDescription.backend)
    }

    /// A record that does not check out is ignored, measured again and replaced: one edited after it was written
    /// (its SHA-256 no longer matches), and a well-formed one for another graph put in its place.
    @Test(.enabled(if: RequiredTools.runs(OpenVINOLibrary.installed)))
    func entryWithAWrongHashIsRedone() throws {
        let home = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try #require(try Self.load("face_landmark.tflite", home: home).runtimeDecision)
        let file = try #require(Self.choiceFiles(home).first)
        let original = try String(contentsOf: file, encoding: .utf8)
        // The other runtime, the checksum left as it was.
        let flipped = first.runtime == .openVINO ? "runtime onnxruntime" : "runtime openvino"
        let edited = original.replacingOccurrences(of: "runtime \(first.runtime.rawValue)", with: flipped)
        #expect(edited != original)
        try edited.write(to: file, atomically: false, encoding: .utf8)
        #expect(RuntimeChoice.Entry(bytes: Array(edited.utf8)) == nil)
        let redone = try #require(try Self.load("face_landmark.tflite", home: home).runtimeDecision)
        #expect(!redone.cached)
        #expect(RuntimeChoice.Entry(bytes: Array(try Data(contentsOf: file))) != nil, "replaced by a good record")

        // A record that reads, for another graph (another source hash), under this graph's name.
        let good = try #require(RuntimeChoice.Entry(bytes: Array(try Data(contentsOf: file))))
        let other = RuntimeChoice.Entry(
            source: String(repeating: "0", count: 64), key: good.key, decision: good.decision)
        try other.text.write(to: file, atomically: false, encoding: .utf8)
        #expect(RuntimeChoice.Entry(bytes: Array(other.text.utf8)) != nil)
        let again = try #require(try Self.load("face_landmark.tflite", home: home).runtimeDecision)
        #expect(!again.cached)
        #expect(try #require(RuntimeChoice.Entry(bytes: Array(try Data(contentsOf: file)))).source == good.source)
    }

    /// A configuration naming a runtime skips the choice (no warm-up, nothing cached); `OPENVISION_BACKEND` names one
    /// for `.automatic` and refuses a name that is no backend.
    @Test func forcedBackendIsRespected() throws {
        let home = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: home) }
        let ort = try Self.load("iris_landmark.tflite", home: home, .onnxRuntime)
        #expect(ort.runtimeDecision == nil)
        #expect(ort.modelDescription.backend.hasPrefix("onnxruntime"))
        if OpenVINOLibrary.installed {
            let vino = try Self.load("iris_landmark.tflite", home: home, .openVINO)
            #expect(vino.runtimeDecision == nil)
            #expect(vino.modelDescription.backend.hasPrefix("openvino"))
        }
        #expect(Self.choiceFiles(home).isEmpty)
        #expect(try RuntimeChoice.environmentChoice(["OPENVISION_BACKEND": "onnxruntime"]) == .onnxRuntime)
        #expect(try RuntimeChoice.environmentChoice(["OPENVISION_BACKEND": "OpenVINO"]) == .openVINO)
        #expect(try RuntimeChoice.environmentChoice(["OPENVISION_BACKEND": ""]) == nil)
        #expect(try RuntimeChoice.environmentChoice([:]) == nil)
        #expect {
            _ = try RuntimeChoice.environmentChoice(["OPENVISION_BACKEND": "tensorrt"])
        } throws: { ($0 as? VisionError)?.code == .invalidArgument }
    }

    /// Outputs off by more than 1e-4 relative keep ONNX Runtime whatever the timings; within it, both are timed.
    @Test func disagreeingOutputsKeepONNXRuntime() throws {
        let home = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: home) }
        let reference = try Self.load("iris_landmark.tflite", home: home, .onnxRuntime).backend
        let off = RuntimeChoice.measure(reference: reference, candidate: Scaled(base: reference, factor: 1 + 1e-3))
        #expect(off.runtime == .onnxRuntime)
        #expect(off.reason.hasPrefix("outputs differ"), "\(off.reason)")
        #expect(off.onnxRuntimeMilliseconds == nil && off.openVINOMilliseconds == nil)
        let close = RuntimeChoice.measure(reference: reference, candidate: Scaled(base: reference, factor: 1 + 1e-6))
        #expect(close.reason == "faster" || close.reason == "not faster", "\(close.reason)")
        #expect(close.onnxRuntimeMilliseconds != nil && close.openVINOMilliseconds != nil)
    }

    /// The classifier, which OpenVINO refuses (its zero-beta HardSigmoid), stays on ONNX Runtime under `.automatic`,
    /// and the refusal is kept (a second load does not ask OpenVINO again).
    @Test(.enabled(if: RequiredTools.runs(OpenVINOLibrary.installed)))
    func refusedGraphStaysOnONNXRuntime() throws {
        let home = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: home) }
        let first = try Self.load("efficientnet-lite0.onnx", home: home)
        #expect(first.modelDescription.backend.hasPrefix("onnxruntime"))
        #expect(first.runtimeDecision?.reason == "refused by OpenVINO")
        let second = try Self.load("efficientnet-lite0.onnx", home: home)
        #expect(second.runtimeDecision?.cached == true && second.runtimeDecision?.runtime == .onnxRuntime)
    }
}

/// A backend whose outputs are another's times `factor`.
private struct Scaled: InferenceBackend {
    let base: any InferenceBackend
    let factor: Float
    var name: String { "scaled" }
    var inputs: [TensorDescription] { base.inputs }
    var outputs: [TensorDescription] { base.outputs }
    func metadata(_ key: String) -> String? { nil }
    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        try base.run(inputs).map { Tensor(name: $0.name, shape: $0.shape, scalars: $0.scalars.map { $0 * factor }) }
    }
}
