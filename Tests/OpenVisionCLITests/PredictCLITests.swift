import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision predict`: inputs by name, outputs as JSON (and `.npy` / `.png` files), on Core ML files from the wild
/// (../shared/models/coreml-wild), a classic-model fixture and its ONNX conversion, run as a user would.
@Suite struct PredictCLITests {
    static let wild = Fixtures.shared.appendingPathComponent("models/coreml-wild")
    static let classic = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/classic")

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Apple's MarsHabitatPricer: the price its weights give (its glmRegressor's weights and offset, coremltools'
    /// `spec.pipelineRegressor.pipeline.models[1].glmRegressor`), as `{"type": "double", "value": …}`.
    @Test func marsHabitatPricerPrice() async throws {
        let run = try await CLIProcess.run([
            "predict", "--model", Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel").path,
            "--input", "solarPanels=1", "--input", "greenhouses=2", "--input", "size=750",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let price = try #require((try Self.json(run.stdout)["outputs"] as? [String: Any])?["price"] as? [String: Any])
        let want = 136.72672317810523 * 1 + 653.51101376230667 * 2 + 5.8540790493029951 * 750 - 3751.0558784658238
        #expect(price["type"] as? String == "double")
        #expect(abs((price["value"] as? Double ?? 0) - want) <= 1e-9 * want, "\(run.stdout)")
        let text = try await CLIProcess.run([
            "predict", "--model", Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel").path,
            "--input", "solarPanels=1", "--input", "greenhouses=2", "--input", "size=750", "--format", "text",
        ])
        #expect(text.status == 0 && text.stdout.contains("price: 2083.25215921"), "\(text.stdout)")
    }

    /// DeepLabV3 on the shared person.jpg: its INT32 map written as an int32 .npy of 513 × 513 holding person (15) and
    /// dog (12) — PASCAL VOC's classes the photo shows.
    @Test func deepLabMapAsNumPy() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLIProcess.run([
            "predict", "--model", Self.wild.appendingPathComponent("DeepLabV3Int8LUT.mlmodel").path,
            "--input", "image=@" + Fixtures.sharedImage("person.jpg").path, "--out", dir.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try #require(
            (try Self.json(run.stdout)["outputs"] as? [String: Any])?["semanticPredictions"] as? [String: Any])
        #expect(output["type"] as? String == "multiArray" && output["dataType"] as? String == "int32")
        #expect(output["shape"] as? [Int] == [513, 513] && output["values"] == nil)
        let file = dir.appendingPathComponent("semanticPredictions.npy")
        #expect(output["file"] as? String == file.path)
        let map = try MultiArray(npy: Data(contentsOf: file))
        guard case .int32(let classes) = map.elements else {
            Issue.record("not int32: \(map.dataType)")
            return
        }
        #expect(map.shape == [513, 513] && Set(classes).isSuperset(of: [0, 12, 15]), "\(Set(classes).sorted())")
    }

    /// The UpdatableDrawingClassifier as shipped (an empty kNN): its default label and no probabilities.
    @Test func emptyKNNGivesItsDefaultLabel() async throws {
        let run = try await CLIProcess.run([
            "predict", "--model", Self.wild.appendingPathComponent("UpdatableDrawingClassifier.mlmodel").path,
            "--input", "drawing=@" + Self.wild.appendingPathComponent("inputs/one.png").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = try #require(try Self.json(run.stdout)["outputs"] as? [String: Any])
        #expect((outputs["label"] as? [String: Any])?["value"] as? String == "unknown")
        #expect(((outputs["labelProbs"] as? [String: Any])?["value"] as? [String: Any])?.isEmpty == true)
    }

    /// A classic fixture and its ONNX conversion: a multi-array given as numbers, then as a .npy file to the ONNX
    /// (`models convert`), the same target scikit-learn predicts (glm_regressor.json's first case).
    @Test func multiArraysAsNumbersAndNumPy() async throws {
        struct Fixture: Decodable {
            struct Case: Decodable {
                var inputs: [String: [Double]]
                var outputs: [String: Double]
            }
            var cases: [Case]
        }
        let fixture = try JSONDecoder().decode(
            Fixture.self, from: Data(contentsOf: Self.classic.appendingPathComponent("glm_regressor.json")))
        let x = fixture.cases[0].inputs["input"]!
        let want = fixture.cases[0].outputs["target"]!
        let model = Self.classic.appendingPathComponent("glm_regressor.mlmodel")
        let run = try await CLIProcess.run([
            "predict", "--model", model.path, "--input", "input=" + x.map { "\($0)" }.joined(separator: ","),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let target = try #require((try Self.json(run.stdout)["outputs"] as? [String: Any])?["target"] as? [String: Any])
        #expect(abs((target["value"] as? Double ?? 0) - want) <= 1e-9 * max(1, abs(want)), "\(run.stdout)")

        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let onnx = dir.appendingPathComponent("glm.onnx")
        let npy = dir.appendingPathComponent("x.npy")
        #expect(try await CLIProcess.run(["models", "convert", model.path, "-o", onnx.path]).status == 0)
        try MultiArray(shape: [1, x.count], elements: .float64(x)).npyData().write(to: npy)
        let onnxRun = try await CLIProcess.run(["predict", "--model", onnx.path, "--input", "input=@" + npy.path])
        #expect(onnxRun.status == 0, "\(onnxRun.stderr)")
        let array = try #require(
            (try Self.json(onnxRun.stdout)["outputs"] as? [String: Any])?["target"] as? [String: Any])
        #expect(array["type"] as? String == "multiArray" && array["shape"] as? [Int] == [1, 1])
        #expect(
            abs(((array["values"] as? [Double])?.first ?? 0) - want) <= 1e-9 * max(1, abs(want)), "\(onnxRun.stdout)")
    }

    /// Bad input: an unknown input (listing the model's), a value of the wrong kind, a missing input, no `=`.
    @Test func badInputsAreNamed() async throws {
        let mars = Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel").path
        let unknown = try await CLIProcess.run(["predict", "--model", mars, "--input", "windows=3"])
        #expect(
            unknown.status == 1 && unknown.stderr.contains("no input 'windows'")
                && unknown.stderr.contains("solarPanels (double)"),
            "\(unknown.stderr)")
        let wrong = try await CLIProcess.run([
            "predict", "--model", mars, "--input", "solarPanels=many", "--input", "greenhouses=1",
            "--input", "size=1",
        ])
        #expect(
            wrong.status == 1 && wrong.stderr.contains("input 'solarPanels' takes a number, not 'many'"),
            "\(wrong.stderr)")
        let missing = try await CLIProcess.run(["predict", "--model", mars, "--input", "solarPanels=1"])
        #expect(missing.status == 1 && missing.stderr.contains("needs the input 'greenhouses'"), "\(missing.stderr)")
        let syntax = try await CLIProcess.run(["predict", "--model", mars, "--input", "solarPanels"])
        #expect(syntax.status != 0 && syntax.stderr.contains("NAME=VALUE"), "\(syntax.stderr)")
    }

    /// predict's model options are the registry's (`RequestOption.model` and the model-loading options): its help shows
    /// each once with the registry's text, a bad value is the registry's message, a request option (crop-and-scale,
    /// which predict does not apply) is refused, and no model is ArgumentParser's usage error.
    @Test func modelOptionsAreTheRegistrys() async throws {
        let help = try await CLIProcess.run(["predict", "--help"])
        for option in RequestOption.all where option.role != .request {
            // Once in the usage line, once in the options.
            #expect(
                help.stdout.components(separatedBy: "--\(option.flag) <").count == 3, "predict --help: --\(option.flag)"
            )
        }
        for flag in ["--input <", "--out <", "--format <"] { #expect(help.stdout.contains(flag), "\(help.stdout)") }
        #expect(!help.stdout.contains("--crop-and-scale") && !help.stdout.contains("--confidence <"), "\(help.stdout)")
        let mars = Self.wild.appendingPathComponent("MarsHabitatPricer.mlmodel").path
        let threads = try await CLIProcess.run(["predict", "--model", mars, "--threads=-1", "--input", "size=1"])
        #expect(
            threads.status == 64 && threads.stderr.contains("threads='-1' must be an integer in 0...1024"),
            "\(threads.stderr)")
        let crop = try await CLIProcess.run(["predict", "--model", mars, "--crop-and-scale", "scaleFit"])
        #expect(crop.status == 64 && crop.stderr.contains("--crop-and-scale is for"), "\(crop.stderr)")
        let none = try await CLIProcess.run(["predict", "--input", "size=1"])
        #expect(none.status == 64 && none.stderr.contains("--model"), "\(none.stderr)")
        let short = try await CLIProcess.run([
            "predict", "-m", mars, "--input", "solarPanels=1", "--input", "greenhouses=2",
            "--input", "size=750", "--backend", "onnxRuntime", "--threads", "1",
        ])
        #expect(short.status == 0, "\(short.stderr)")
    }
}
