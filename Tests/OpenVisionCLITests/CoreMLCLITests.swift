import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision models info|convert|compile` and `detect --model` on Core ML files (../shared/models/coreml and the
/// per-layer fixtures), run as a user would.
@Suite struct CoreMLCLITests {
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    /// `models info` prints Core ML's own description: the model type, the image input with its scaler, the
    /// outputs, the labels, layers by type and the weight format (coremltools: 95 layers, 49 convolution).
    @Test func infoDescribesTheClassifier() async throws {
        let run = try await CLIProcess.run([
            "models", "info", Self.coreml.appendingPathComponent("MobileNetLikeInt8LUT.mlmodel").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for text in [
            "format:   coreml", "coreml:   neuralNetworkClassifier, specification 4",
            "input:    image: image 224×224 RGB, input = 0.0078125 × pixel + [-0.9921875, -0.9921875, -0.9921875] (rgb)",
            "output:   classLabelProbs: dictionary (string keys)", "coreml labels: 1000",
            "image:    image 224×224 rgb, fit centerCrop",
            "converts: yes, to ONNX (input image [1×3×224×224] float32; output classLabelProbs [1×1000] float32)",
            "coreml layers: 95: convolution ×49, clip ×33, add ×9", "coreml weights: 8-bit LUT",
        ] {
            #expect(run.stdout.contains(text), "missing \"\(text)\" in\n\(run.stdout)")
        }
    }

    /// An image-to-image model: `models info` shows the image output and how its tensor maps to pixels
    /// (Tests/Fixtures/coreml/image-outputs, scripts/models/coreml_image_output_fixtures.py).
    @Test func infoShowsAnImageOutput() async throws {
        let file = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/image-outputs/ImageBGR.mlmodel")
        let run = try await CLIProcess.run(["models", "info", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        for text in [
            "input:    image: image 5×4 RGB, input = 1.0 × pixel + [0.0, 0.0, 0.0] (rgb)",
            "output:   styled: image 5×4 BGR, output = pixels 0...255 of [1, 3, H, W] (bgr) — the filtered image",
            "coreml layers: 1: convolution ×1",
        ] {
            #expect(run.stdout.contains(text), "missing \"\(text)\" in\n\(run.stdout)")
        }
    }

    /// A model with a custom layer: `models info` describes it, names the layer and its class, says it converts only
    /// once the app registers the class (the registration line), and exits 0 (it described the file).
    @Test func infoNamesAnUnsupportedLayer() async throws {
        let file = Fixtures.packageRoot.appendingPathComponent(
            "Tests/Fixtures/coreml/layers/unsupported_custom.mlmodel")
        let run = try await CLIProcess.run(["models", "info", file.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("coreml custom layer: MyAppLayer 'custom1'"), "\(run.stdout)")
        #expect(
            run.stdout.contains("converts: no: layer 'custom1' (custom) is the custom layer class 'MyAppLayer'"),
            "\(run.stdout)")
        #expect(run.stdout.contains("MLCustomLayerRegistry.register(MyAppLayer.self, forClassName: \"MyAppLayer\")"))
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
        let detect = try await CLIProcess.run([
            "detect", "--model", compiled.path, "--format", "json",
            Self.coreml.appendingPathComponent("inputs/dog_320.png").path,
        ])
        #expect(detect.status == 0, "\(detect.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(detect.stdout.utf8)) as? [String: Any]
        let labels = Set((report?["objects"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String })
        #expect(labels == ["dog", "car", "bicycle", "cat", "truck"], "\(detect.stdout.prefix(400))")
    }

    static let wild = Fixtures.shared.appendingPathComponent("models/coreml-wild")

    /// Xcode's compiled folders from the wild (../shared/models/coreml-wild): `models info` describes the Espresso
    /// MNISTClassifier with its Core ML types (a grayscale image, an int64 label, int64-keyed probabilities) and exits 0;
    /// `classify` reads the three drawn digits (1, 7, 0), `detect` finds the dog and the bicycle with yolov8n.mlmodelc.
    @Test func compiledFoldersFromTheWild() async throws {
        let mnist = Self.wild.appendingPathComponent("MNISTClassifier.mlmodelc")
        let info = try await CLIProcess.run(["models", "info", mnist.path])
        #expect(info.status == 0, "\(info.stderr)")
        for text in [
            "coreml:   neuralNetworkClassifier, specification 1",
            "input:    image: image 28×28 GRAYSCALE, input = 0.003921569 × luma + 0.0 (in the graph)",
            "output:   labelProbabilities: dictionary (int64 keys)", "output:   classLabel: int64",
            "image:    image 28×28 gray (the graph takes RGB and makes the luma), fit centerCrop",
            "coreml labels: 10: 0, 1, 2", "converts: yes",
        ] {
            #expect(info.stdout.contains(text), "missing \"\(text)\" in\n\(info.stdout)")
        }
        var digits = ""
        for digit in ["one", "seven", "zero"] {
            let run = try await CLIProcess.run([
                "classify", "--model", mnist.path, "--format", "json",
                Self.wild.appendingPathComponent("inputs/\(digit).png").path,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            digits += ((report?["classifications"] as? [[String: Any]])?.first?["identifier"] as? String) ?? "?"
        }
        #expect(digits == "170")
        let detect = try await CLIProcess.run([
            "detect", "--model", Self.wild.appendingPathComponent("yolov8n.mlmodelc").path,
            "--format", "json", Fixtures.sharedImage("dog.jpg").path,
        ])
        #expect(detect.status == 0, "\(detect.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(detect.stdout.utf8)) as? [String: Any]
        let labels = Set((report?["objects"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String })
        #expect(labels.isSuperset(of: ["dog", "bicycle"]), "\(detect.stdout.prefix(400))")
    }

    /// `detect` refuses a model no detector decoder fits — DeepLabV3's INT32 segmentation map — naming its outputs with
    /// their Core ML types (it answered three "objects" of confidence 7 and zero size).
    @Test func detectRefusesASegmentationModel() async throws {
        let run = try await CLIProcess.run([
            "detect", "--model", Self.wild.appendingPathComponent("DeepLabV3Int8LUT.mlmodel").path,
            Fixtures.sharedImage("dog.jpg").path,
        ])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "no detection decoder understands this model's outputs: semanticPredictions multiArray INT32 [513, 513]"
            )
                && run.stderr.contains("[invalidModel]"), "\(run.stderr)")
    }

    /// `models info` exits 0 on models it can describe that do not convert, saying why (UpdatableDrawingClassifier's
    /// kNN stage, until the classic types convert), and prints no image line for a model without image input
    /// (PlayerActionClassifier's pose sequences).
    @Test func infoDescribesWhatDoesNotConvert() async throws {
        let drawing = try await CLIProcess.run([
            "models", "info", Self.wild.appendingPathComponent("UpdatableDrawingClassifier.mlmodel").path,
        ])
        #expect(drawing.status == 0, "\(drawing.stderr)")
        #expect(drawing.stdout.contains("input:    drawing: image 28×28 GRAYSCALE"), "\(drawing.stdout)")
        #expect(drawing.stdout.contains("converts: "), "\(drawing.stdout)")
        let action = try await CLIProcess.run([
            "models", "info", Self.wild.appendingPathComponent("PlayerActionClassifier.mlmodel").path,
        ])
        #expect(action.status == 0, "\(action.stderr)")
        #expect(
            action.stdout.contains("input:    poses: multiArray FLOAT32 [45, 3, 18]")
                && !action.stdout.contains("image:"),
            "\(action.stdout)")
        #expect(action.stdout.contains("converts: yes"), "\(action.stdout)")
    }
}
