import Foundation
import OpenVision
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

/// Layouts of public detectors through `openvision detect`, with models built here in their exact output
/// layout (the real files are not reachable from these machines; see the README's table).
@Suite struct PublicDetectorCLITests {
    /// An UltraFace-shaped model (Linzaer's version-RFB-320): input [1, 3, 240, 320]; outputs `scores [1, N, 2]`
    /// (background, face) then `boxes [1, N, 4]` (normalised corners). Old-style: its initializers are also
    /// listed as graph inputs, which ONNX Runtime warns about once per weight. The outputs are constants
    /// (Identity of initializers): one face at x 0.25...0.5, y 0.2...0.6, score 0.9, and two non-faces.
    static func ultraFaceShapedModel(in dir: URL) throws -> URL {
        var graph = ONNXWriter.Graph(name: "ultraface-shaped")
        graph.initializers = [
            .init(name: "scores_const", dims: [1, 3, 2], floats: [0.98, 0.02, 0.1, 0.9, 0.85, 0.15]),
            .init(
                name: "boxes_const", dims: [1, 3, 4], floats: [0, 0, 1, 1, 0.25, 0.2, 0.5, 0.6, 0.6, 0.6, 0.7, 0.7]),
        ]
        graph.inputs = [
            .init(name: "input", elementType: .float, shape: [.value(1), .value(3), .value(240), .value(320)]),
            .init(name: "scores_const", elementType: .float, shape: [.value(1), .value(3), .value(2)]),
            .init(name: "boxes_const", elementType: .float, shape: [.value(1), .value(3), .value(4)]),
        ]
        graph.nodes = [
            .init(opType: "Identity", name: "scores", inputs: ["scores_const"], outputs: ["scores"]),
            .init(opType: "Identity", name: "boxes", inputs: ["boxes_const"], outputs: ["boxes"]),
        ]
        graph.outputs = [
            .init(name: "scores", elementType: .float, shape: [.value(1), .value(3), .value(2)]),
            .init(name: "boxes", elementType: .float, shape: [.value(1), .value(3), .value(4)]),
        ]
        let url = dir.appendingPathComponent("version-RFB-320.onnx")
        try ONNXWriter.Model(graph: graph).serialized().write(to: url)
        // One label, as a sidecar beside the model.
        try "face\n".write(
            to: dir.appendingPathComponent("version-RFB-320.labels.txt"), atomically: true, encoding: .utf8)
        return url
    }

    @Test func ultraFaceLayoutQuietWarningsAndNormalisation() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.ultraFaceShapedModel(in: dir)
        let image = Fixtures.sharedImage("person.jpg").path
        // UltraFace's own preprocessing: stretched to 320 × 240, (x − 127) / 128.
        // On ONNX Runtime (not as `auto` picks): its warnings are what the quiet and verbose runs look at.
        let flags = [
            "--crop-and-scale", "scaleFill", "--pixel-scale", "1", "--pixel-mean", "127", "--pixel-std", "128",
            "--backend", "onnxruntime",
        ]
        let quiet = try await CLIProcess.run(["detect", "--model", model.path, image] + flags)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        // ONNX Runtime's warnings (lines tagged "W:onnxruntime") are quiet by default ...
        #expect(!quiet.stderr.contains("onnxruntime"), "\(quiet.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(quiet.stdout.utf8))
        // ... and the one face (scores-first, background column skipped) is found: 0.25...0.5 × 640, 0.2...0.6 × 424.
        #expect(report.objects?.map(\.label) == ["face"])
        let face = try #require(report.objects?.first)
        #expect(abs(face.confidence - 0.9) < 1e-4)
        #expect(abs(face.box.pixels.x - 160) < 1 && abs(face.box.pixels.width - 160) < 1)
        #expect(abs(face.box.pixels.y - 84.8) < 1 && abs(face.box.pixels.height - 169.6) < 1)

        // Recognised as UltraFace (outputs scores + boxes, 320 × 240 input): its preprocessing without the flags.
        let plain = try await CLIProcess.run(["detect", "--model", model.path, image, "--backend", "onnxruntime"])
        let auto = try JSONDecoder().decode(AnalysisReport.self, from: Data(plain.stdout.utf8))
        #expect(auto.objects?.first?.box == face.box, "\(plain.stdout)")

        // --verbose shows them.
        let verbose = try await CLIProcess.run(["detect", "--verbose", "--model", model.path, image] + flags)
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("onnxruntime") && verbose.stderr.contains("scores_const"), "\(verbose.stderr)")

        // Bad normalisation values are refused with a message.
        let bad = try await CLIProcess.run(["detect", "--model", model.path, image, "--pixel-std", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("pixel normalisation"), "\(bad.stderr)")
        let arity = try await CLIProcess.run(["detect", "--model", model.path, image, "--pixel-mean", "1,2"])
        #expect(arity.status != 0 && arity.stderr.contains("--pixel-mean"), "\(arity.stderr)")
        let fit = try await CLIProcess.run(["detect", "--model", model.path, image, "--crop-and-scale", "squash"])
        #expect(fit.status != 0 && fit.stderr.contains("scaleFill"), "\(fit.stderr)")
    }
}
