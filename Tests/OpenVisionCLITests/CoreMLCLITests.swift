import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// `openvision models info|convert|compile` and `detect --model` on Core ML files (../shared/models/coreml and the
/// per-layer fixtures), run as a user would.
@Suite struct CoreMLCLITests {
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    /// `models info` prints Core ML's own description: the model type, the image input with its scaler, the
    /// outputs, the labels, layers by type and the weight format (coremltools: 95 layers, 49 convolution).
    @Test func infoDescribesTheClassifier() async throws {
        let run = try await CLIProcess.run(["models", "info", Self.coreml.appendingPathComponent("MobileNetLikeInt8LUT.mlmodel").path])
        #expect(run.status == 0, "\(run.stderr)")
        for text in ["format:   coreml", "coreml:   neuralNetworkClassifier, specification 4",
                     "coreml input:  image: image 224×224 RGB, input = 0.0078125 × pixel + [-0.9921875, -0.9921875, -0.9921875] (rgb)",
                     "coreml output: classLabelProbs: dictionary (string keys)", "coreml labels: 1000",
                     "coreml layers: 95: convolution ×49, clip ×33, add ×9", "coreml weights: 8-bit LUT"] {
            #expect(run.stdout.contains(text), "missing \"\(text)\" in\n\(run.stdout)")
        }
    }

    /// An image-to-image model: `models info` shows the image output and how its tensor maps to pixels
    /// (Tests/Fixtures/coreml/image-outputs, scripts/models/coreml_image_output_fixtures.py).
    @Test func infoShowsAnImageOutput() async throws {
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/image-outputs/ImageBGR.mlmodel")
        let run = try await CLIProcess.run(["models", "info", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        for text in ["coreml input:  image: image 5×4 RGB, input = 1.0 × pixel + [0.0, 0.0, 0.0] (rgb)",
                     "coreml output: styled: image 5×4 BGR, output = pixels 0...255 of [1, 3, H, W] (bgr) — the filtered image",
                     "coreml layers: 1: convolution ×1"] {
            #expect(run.stdout.contains(text), "missing \"\(text)\" in\n\(run.stdout)")
        }
    }

    /// A model with a layer the converter lacks: `models info` still shows the file and names the layer, and exits 1.
    @Test func infoNamesAnUnsupportedLayer() async throws {
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/layers/unsupported_custom.mlmodel")
        let run = try await CLIProcess.run(["models", "info", file.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("coreml unsupported: custom 'custom1'"), "\(run.stdout)")
        #expect(run.stderr.contains("'custom1' (custom)") && run.stderr.contains("[unsupported]"), "\(run.stderr)")
    }

    /// `models convert` writes an ONNX file whose metadata describes the Core ML model; `models compile` an .mlmodelc
    /// that `detect --model` takes.
    @Test func convertAndCompileAndDetect() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = Self.coreml.appendingPathComponent("YoloFastestPipeline.mlmodel")
        let onnx = dir.appendingPathComponent("yolo.onnx")
        let convert = try await CLIProcess.run(["models", "convert", model.path, "-o", onnx.path])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout.hasPrefix("wrote \(onnx.path)"))
        let compile = try await CLIProcess.run(["models", "compile", model.path, "-o", dir.path])
        #expect(compile.status == 0, "\(compile.stderr)")
        let compiled = dir.appendingPathComponent("YoloFastestPipeline.mlmodelc")
        #expect(FileManager.default.fileExists(atPath: compiled.appendingPathComponent("coreml.json").path))
        // The dog photo pre-cropped to 320 × 320: dog, car, bicycle, cat, truck (references/YoloFastestPipeline.json).
        let detect = try await CLIProcess.run(["detect", "--model", compiled.path, "--format", "json",
                                               Self.coreml.appendingPathComponent("inputs/dog_320.png").path])
        #expect(detect.status == 0, "\(detect.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(detect.stdout.utf8)) as? [String: Any]
        let labels = Set((report?["objects"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String })
        #expect(labels == ["dog", "car", "bicycle", "cat", "truck"], "\(detect.stdout.prefix(400))")
    }
}
