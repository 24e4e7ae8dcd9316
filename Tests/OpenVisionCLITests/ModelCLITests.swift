import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Model errors that need a fresh process: ONNX Runtime is loaded once per process.
@Suite struct ModelCLITests {
    /// The ONNX Runtime library is loaded once per process, so these run the CLI in a child process.
    @Test func missingOrWrongONNXRuntimeLibrary() async throws {
        let model = try #require(ModelLocator.find("efficientnet-lite0.onnx")).path
        for (library, text) in [
            ("/nonexistent/libonnxruntime.so", "scripts/setup"), ("/lib/x86_64-linux-gnu/libm.so.6", "OrtGetApiBase"),
        ] {
            let run = try await CLIProcess.run(
                [
                    "classify", "--model", model, "--backend", "onnxRuntime",
                    Fixtures.sharedImage("dog.jpg").path,
                ], environment: ["OPENVISION_ORT_LIBRARY": library])
            #expect(run.status == 1)
            #expect(run.stderr.contains(text) && run.stderr.contains("[unsupported]"), "\(run.stderr)")
        }
        // Automatic backend choice falls back to OpenCV DNN and still classifies.
        let fallback = try await CLIProcess.run(
            ["classify", "--model", model, "--format", "table", Fixtures.sharedImage("dog.jpg").path],
            environment: ["OPENVISION_ORT_LIBRARY": "/nonexistent/libonnxruntime.so"])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stdout.contains("malamute"))
    }

    /// OpenVINO is loaded once per process too: a missing library or one that is not OpenVINO's C API is an
    /// `unsupported` error naming the fix; the installed one runs the face detector (`--backend openvino`) and
    /// refuses the classifier, which it would answer wrongly (OpenVINOBackendTests).
    @Test func missingOrWrongOpenVINOLibrary() async throws {
        let model = try #require(ModelLocator.find("efficientnet-lite0.onnx")).path
        let image = Fixtures.sharedImage("dog.jpg").path
        for (library, text) in [
            ("/nonexistent/libopenvino_c.so", "scripts/setup"),
            ("/lib/x86_64-linux-gnu/libm.so.6", "not OpenVINO's C API library"),
        ] {
            let run = try await CLIProcess.run(
                ["classify", "--model", model, "--backend", "openvino", image],
                environment: ["OPENVISION_OPENVINO_LIBRARY": library])
            #expect(run.status == 1)
            #expect(run.stderr.contains(text) && run.stderr.contains("[unsupported]"), "\(run.stderr)")
        }
        let library = "/usr/local/lib/openvision/openvino/libopenvino_c.so"
        guard RequiredTools.runs(FileManager.default.fileExists(atPath: library)) else { return }
        let info = try await CLIProcess.run(
            ["models", "info", "face_landmark.tflite", "--backend", "openvino"],
            environment: ["OPENVISION_OPENVINO_LIBRARY": library])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("backend openvino 2026.4.0"), "\(info.stdout)")
        let refused = try await CLIProcess.run(
            ["classify", "--model", model, "--backend", "openvino", image],
            environment: ["OPENVISION_OPENVINO_LIBRARY": library])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("HardSigmoid") && refused.stderr.contains("[unsupported]"), "\(refused.stderr)")
    }

    /// `auto` (the default) with OpenVINO missing, or a library that is not OpenVINO's: ONNX Runtime serves every model
    /// of the process (the face detector, mesh and iris models here), with one warning in all. `OPENVISION_BACKEND`
    /// names the runtime for `auto`.
    @Test func automaticFallsBackToONNXRuntimeWithOneWarning() async throws {
        let astronaut = Fixtures.sharedImage("astronaut.png").path
        let cache = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: cache) }
        for (library, text) in [
            ("/nonexistent/libopenvino_c.so", "OpenVINO is not installed"),
            ("/lib/x86_64-linux-gnu/libm.so.6", "OpenVINO does not load"),
        ] {
            let run = try await CLIProcess.run(
                ["analyze", astronaut, "--requests", "landmarks"],
                environment: ["OPENVISION_OPENVINO_LIBRARY": library, "XDG_CACHE_HOME": cache.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("landmarks"), "\(run.stdout.prefix(500))")
            let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("openvision: warning: OpenVINO") }
            #expect(warnings.count == 1 && warnings[0].contains(text), "\(run.stderr)")
        }
        let forced = try await CLIProcess.run(
            ["models", "info", "face_landmark.tflite"],
            environment: ["OPENVISION_BACKEND": "onnxruntime", "XDG_CACHE_HOME": cache.path])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("backend onnxruntime"), "\(forced.stdout)")
        let wrong = try await CLIProcess.run(
            ["models", "info", "face_landmark.tflite"], environment: ["OPENVISION_BACKEND": "tensorrt"])
        #expect(wrong.status == 1 && wrong.stderr.contains("OPENVISION_BACKEND"), "\(wrong.stderr)")
    }

    /// Issue 14, finding 5: an upsample stride of 2⁶² trapped on arithmetic overflow (SIGILL) in
    /// `models convert`; it is a one-line error naming the line, and the process exits with status 1.
    @Test func convertRejectsAnOverflowingCfg() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xl = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco/yolo-fastest-1.1-xl")
        var inUpsample = false
        let text = try String(contentsOf: xl.appendingPathExtension("cfg"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                if line.hasPrefix("[") { inUpsample = line == "[upsample]" }
                return inUpsample && line.hasPrefix("stride") ? "stride=4611686018427387904" : String(line)
            }.joined(separator: "\n")
        let cfg = dir.appendingPathComponent("ovf.cfg")
        let out = dir.appendingPathComponent("ovf.onnx")
        try text.write(to: cfg, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("ovf.weights"),
            withDestinationURL: xl.appendingPathExtension("weights"))
        let run = try await CLIProcess.run(["models", "convert", cfg.path, "-o", out.path])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("openvision: error: ovf.cfg:") && run.stderr.contains("stride=4611686018427387904"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
