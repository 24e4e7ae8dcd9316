import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// Model errors that need a fresh process: ONNX Runtime is loaded once per process.
@Suite struct ModelCLITests {
    /// The ONNX Runtime library is loaded once per process, so these run the CLI in a child process.
    @Test func missingOrWrongONNXRuntimeLibrary() async throws {
        let model = try #require(ModelLocator.find("efficientnet-lite0.onnx")).path
        for (library, text) in [("/nonexistent/libonnxruntime.so", "scripts/setup"), ("/lib/x86_64-linux-gnu/libm.so.6", "OrtGetApiBase")] {
            let run = try await CLIProcess.run(["classify", "--model", model, "--backend", "onnxRuntime",
                                        Fixtures.sharedImage("dog.jpg").path], environment: ["OPENVISION_ORT_LIBRARY": library])
            #expect(run.status == 1)
            #expect(run.stderr.contains(text) && run.stderr.contains("[unsupported]"), "\(run.stderr)")
        }
        // Automatic backend choice falls back to OpenCV DNN and still classifies.
        let fallback = try await CLIProcess.run(["classify", "--model", model, "--format", "table", Fixtures.sharedImage("dog.jpg").path],
                                        environment: ["OPENVISION_ORT_LIBRARY": "/nonexistent/libonnxruntime.so"])
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(fallback.stdout.contains("malamute"))
    }
}
