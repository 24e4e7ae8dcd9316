import Foundation
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Core ML image outputs as the converter writes them: a float32 `[1, C, H, W]` graph output (C = 1 grayscale, 3 RGB /
/// BGR) and `imageOutputs` in the model's Core ML description, for NeuralNetworks and ML Programs, flexible sizes,
/// compiled folders, and the refusal of an output whose declared size the network does not give.
///
/// Fixtures: Tests/Fixtures/coreml/image-outputs (scripts/models/coreml_image_output_fixtures.py, coremltools 9.0); the
/// pixel values themselves are checked against numpy in Tests/VisionCompatTests/CoreMLImageOutputTests.swift.
@Suite struct CoreMLImageOutputConversionTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/image-outputs")

    static func configuration() -> VisionModel.Configuration {
        var c = VisionModel.Configuration()
        c.threads = 1
        c.backend = .onnxRuntime
        return c
    }

    /// (file, output, channels, colour order, colour space)
    static let models: [(String, String, Int, String, String)] = [
        ("ImageRGB.mlmodel", "styled", 3, "rgb", "RGB"), ("ImageBGR.mlmodel", "styled", 3, "bgr", "BGR"),
        ("ImageRGBND.mlmodel", "styled", 3, "rgb", "RGB"),
        ("ImageGray.mlmodel", "styled", 1, "gray", "GRAYSCALE"),
        ("ImageProgram.mlpackage", "filtered", 3, "rgb", "RGB"),
        ("ImageProgramBGR16.mlpackage", "filtered", 3, "bgr", "BGR"),
        ("ImageProgramGray.mlpackage", "inverted", 1, "gray", "GRAYSCALE"),
    ]

    @Test(arguments: models)
    func imageOutputIsAPixelTensor(_ file: String, _ output: String, _ channels: Int, _ order: String, _ space: String)
        throws
    {
        let model = try VisionModel(
            contentsOf: Self.folder.appendingPathComponent(file), configuration: Self.configuration())
        let d = model.modelDescription
        #expect(d.outputs.map(\.name) == [output])
        #expect(d.outputs.first?.shape == [1, channels, 4, 5])
        let info = try #require(d.coreML)
        #expect(info.outputs.first?.type == "image" && info.outputs.first?.colorSpace == space)
        let image = try #require(info.imageOutputs?[output])
        #expect(
            image
                == CoreMLModelInfo.ImageOutput(
                    width: 5, height: 4, channels: channels, colorOrder: order, colorSpace: space, flexible: false))
        #expect(info.converterRevision == ConvertedModelCache.coreML.revision)
    }

    /// A model without image outputs has no `imageOutputs` entry.
    @Test func otherModelsHaveNoImageOutputs() throws {
        let layer = Fixtures.packageRoot.appendingPathComponent(
            "Tests/Fixtures/coreml/layers/conv_valid_padded_stride2.mlmodel")
        let model = try VisionModel(contentsOf: layer, configuration: Self.configuration())
        #expect(model.modelDescription.coreML?.imageOutputs == nil)
    }

    /// Image size ranges: the network is converted at its input's default size, so the output is that size's
    /// `[1, 3, 4, 5]`, and the description says the size is flexible.
    @Test func flexibleImageOutputTakesTheDefaultSize() throws {
        let model = try VisionModel(
            contentsOf: Self.folder.appendingPathComponent("ImageRGBFlexible.mlmodel"),
            configuration: Self.configuration())
        let image = try #require(model.modelDescription.coreML?.imageOutputs?["styled"])
        #expect(image.flexible && image.width == 5 && image.height == 4 && image.channels == 3)
        #expect(model.modelDescription.outputs.first?.shape == [1, 3, 4, 5])
        let input = Tensor(name: "image", shape: [1, 3, 4, 5], scalars: (0..<60).map { Float($0) })
        #expect(try model.prediction(from: [input])[0].shape == [1, 3, 4, 5])
    }

    /// An output declared 6 × 4 that the network computes 5 × 4: `invalidModel` naming the output and both shapes.
    @Test func wrongSizedImageOutputIsRefused() {
        do {
            _ = try VisionModel(
                contentsOf: Self.folder.appendingPathComponent("ImageWrongSize.mlmodel"),
                configuration: Self.configuration())
            Issue.record("ImageWrongSize.mlmodel loaded")
        } catch {
            #expect(error.code == .invalidModel, "\(error)")
            #expect(
                error.message.contains("image output 'styled' of 3 × 4 × 6 values: the model gives shape [1, 3, 4, 5]"),
                "\(error.message)")
        }
    }

    /// A compiled folder keeps the image outputs' description and gives the same tensor.
    @Test func compiledFolderKeepsImageOutputs() throws {
        let source = Self.folder.appendingPathComponent("ImageBGR.mlmodel")
        let compiled = try VisionModel.compileCoreMLModel(at: source)
        defer { try? FileManager.default.removeItem(at: compiled.deletingLastPathComponent()) }
        let fromFolder = try VisionModel(contentsOf: compiled, configuration: Self.configuration())
        let fromFile = try VisionModel(contentsOf: source, configuration: Self.configuration())
        #expect(fromFolder.modelDescription.coreML?.imageOutputs == fromFile.modelDescription.coreML?.imageOutputs)
        #expect(fromFolder.modelDescription.coreML?.imageOutputs?["styled"]?.colorOrder == "bgr")
        let input = Tensor(name: "image", shape: [1, 3, 4, 5], scalars: (0..<60).map { Float($0) })
        #expect(try fromFolder.prediction(from: [input])[0].scalars == fromFile.prediction(from: [input])[0].scalars)
    }
}
