import CoreML
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing
import Vision

/// Core ML models whose outputs are images (image to image): `MLModel.prediction(from:)` gives an image feature and
/// `VNCoreMLRequest` a `VNPixelBufferObservation`, with Core ML's pixels.
///
/// Fixtures: Tests/Fixtures/coreml/image-outputs, written by
///
///     /work/venvs/coremltools/bin/python scripts/models/coreml_image_output_fixtures.py   (coremltools==9.0 numpy)
///
/// NeuralNetworks (1×1 convolutions with bias; RGB, BGR and grayscale image outputs) and ML Programs (coremltools'
/// `ImageType` outputs: RGB fp32, BGR fp16 with a BGR input, grayscale). expected.json holds each model's input pixels and the output's pixels
/// from numpy following the model's math: `pixels = clip(rint(y), 0, 255)` with `y = einsum('oc,chw->ohw', w, x) + b`
/// (networks), `y = x * scale[c] + shift[c]` / `y = 300.3 - 1.7 x` (programs) — values below 0 and above 255 included,
/// none within 0.01 of a rounding tie.
@Suite struct CoreMLImageOutputTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/image-outputs")

    struct Expected: Decodable {
        struct Model: Decodable {
            var kind: String
            var width: Int
            var height: Int
            var outputColorSpace: String
            /// H × W × (RGB or gray) input bytes.
            var input: [UInt8]
            /// The output tensor [C, H, W], channels in the colour space's order.
            var tensor: [Float]
            /// H × W × (RGB or gray) output bytes.
            var pixels: [UInt8]
        }
        var models: [String: Model]
    }

    static let expected = try! JSONDecoder().decode(
        Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))

    /// (file, input name, output name)
    static let models: [(String, String, String)] = [
        ("ImageRGB.mlmodel", "image", "styled"), ("ImageBGR.mlmodel", "image", "styled"),
        ("ImageGray.mlmodel", "image", "styled"),
        ("ImageRGBFlexible.mlmodel", "image", "styled"), ("ImageRGBND.mlmodel", "image", "styled"),
        ("ImageProgram.mlpackage", "x", "filtered"), ("ImageProgramBGR16.mlpackage", "x", "filtered"),
        ("ImageProgramGray.mlpackage", "x", "inverted"),
    ]

    static func name(_ file: String) -> String { URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent }

    static func inputImage(_ m: Expected.Model) throws -> VisionImage {
        let gray = m.input.count == m.width * m.height
        return try VisionImage(
            pixels: PixelBuffer(data: Data(m.input), width: m.width, height: m.height, format: gray ? .gray8 : .rgb8))
    }

    /// A Core ML image buffer's pixels (see `pixels(_:gray:)`): OneComponent8 for gray, 32BGRA for colour, as Apple's.
    static func pixels(_ buffer: CVPixelBuffer, gray: Bool) throws -> [UInt8] {
        #expect(
            CVPixelBufferGetPixelFormatType(buffer)
                == (gray ? kCVPixelFormatType_OneComponent8 : kCVPixelFormatType_32BGRA))
        return pixels(try buffer.visionImage(), gray: gray)
    }

    /// The image's pixels as H × W × (RGB or gray) bytes; a gray image's red, green and blue must be equal.
    static func pixels(_ image: VisionImage, gray: Bool) -> [UInt8] {
        let rgb = [UInt8](image.rgbData())
        guard gray else { return rgb }
        var luma: [UInt8] = []
        var equal = true
        for i in stride(from: 0, to: rgb.count, by: 3) {
            luma.append(rgb[i])
            if rgb[i + 1] != rgb[i] || rgb[i + 2] != rgb[i] { equal = false }
        }
        #expect(equal, "a gray image with unequal channels")
        return luma
    }

    @Test(arguments: models)
    func predictionGivesTheImage(_ file: String, _ input: String, _ output: String) throws {
        let m = try #require(Self.expected.models[Self.name(file)])
        let model = try MLModel(contentsOf: Self.folder.appendingPathComponent(file))
        let gray = m.outputColorSpace == "GRAYSCALE"

        // The description says image, with Core ML's constraint.
        let description = try #require(model.modelDescription.outputDescriptionsByName[output])
        #expect(description.type == .image)
        let constraint = try #require(description.imageConstraint)
        #expect(constraint.pixelsWide == m.width && constraint.pixelsHigh == m.height)
        #expect(constraint.pixelFormatType == (gray ? kCVPixelFormatType_OneComponent8 : kCVPixelFormatType_32BGRA))

        let features = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: [input: Self.inputImage(m)]))
        let value = try #require(features.featureValue(for: output))
        #expect(value.type == .image)
        #expect(value.multiArrayValue == nil)
        let image = try #require(value.imageBufferValue)
        #expect(CVPixelBufferGetWidth(image) == m.width && CVPixelBufferGetHeight(image) == m.height)
        #expect(try Self.pixels(image, gray: gray) == m.pixels, "\(file)")
        // The fixtures reach both ends: clamping is exercised.
        #expect(m.pixels.contains(0) && m.pixels.contains(255))
    }

    @Test(arguments: models)
    func vnCoreMLRequestGivesAPixelBufferObservation(_ file: String, _ input: String, _ output: String) throws {
        let m = try #require(Self.expected.models[Self.name(file)])
        let request = VNCoreMLRequest(
            model: try VNCoreMLModel(for: MLModel(contentsOf: Self.folder.appendingPathComponent(file))))
        request.imageCropAndScaleOption = .scaleFill
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.inputImage(m))).perform([request])
        let results = try #require(request.results)
        #expect(results.count == 1)
        let observation = try #require(results.first as? VNPixelBufferObservation)
        #expect(observation.featureName == output)
        let gray = m.outputColorSpace == "GRAYSCALE"
        let image = observation.pixelBuffer
        #expect(CVPixelBufferGetWidth(image) == m.width && CVPixelBufferGetHeight(image) == m.height)
        #expect(try Self.pixels(image, gray: gray) == m.pixels, "\(file)")
        // The exact values too: [H, W, C] interleaved, channels in the tensor's order, within float32 rounding (the
        // grayscale networks compute the luma of the RGB-fed gray pixels: 0.299 + 0.587 + 0.114 in float32).
        let c = gray ? 1 : 3
        let plane = m.width * m.height
        #expect(observation.values.channels == c)
        for k in 0..<c {
            for i in 0..<plane {
                let got = observation.values.values[i * c + k]
                let want = m.tensor[k * plane + i]
                #expect(
                    abs(got - want) <= 1e-3 * max(1, abs(want)), "\(file) channel \(k) pixel \(i): \(got) vs \(want)")
            }
        }
    }

    /// An Xcode-compiled ML Program folder: `model.mil` (the fixture's program as text) and a metadata.json whose
    /// schemas say the input and output are images (the keys `CompiledProgram` reads) give the same image.
    @Test(arguments: [("ImageProgram", "filtered", "RGB"), ("ImageProgramGray", "inverted", "GRAYSCALE")])
    func compiledProgramFolderGivesTheImage(_ name: String, _ output: String, _ space: String) throws {
        let m = try #require(Self.expected.models[name])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ov-image-\(UUID().uuidString)/\(name).mlmodelc")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("\(name).mil"), to: folder.appendingPathComponent("model.mil"))
        let image =
            #"{"type": "Image", "colorspace": ""# + space + #"", "width": "5", "height": "4", "isOptional": "0""#
        let metadata =
            #"[{"inputSchema": ["# + image + #", "name": "x"}], "outputSchema": ["# + image + #", "name": ""# + output
            + #""}]}]"#
        try Data(metadata.utf8).write(to: folder.appendingPathComponent("metadata.json"))
        let model = try MLModel(contentsOf: folder)
        #expect(model.modelDescription.outputDescriptionsByName[output]?.type == .image)
        let features = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: ["x": Self.inputImage(m)]))
        let result = try #require(features.featureValue(for: output)?.imageBufferValue)
        #expect(try Self.pixels(result, gray: space == "GRAYSCALE") == m.pixels)
    }

    /// A batch from `MLArrayBatchProvider(dictionary:)` of plain images (and numbers, strings, arrays as
    /// `MLDictionaryFeatureProvider` takes them): `predictions(fromBatch:)` gives each input's image.
    @Test func batchOfImagesGivesEachImage() throws {
        let rgb = try #require(Self.expected.models["ImageRGB"])
        let gray = try #require(Self.expected.models["ImageGray"])
        // ImageGray's input as RGB: the network takes its luma, i.e. the same gray values.
        let grayRGB = try VisionImage(
            pixels: PixelBuffer(data: Data(gray.input.flatMap { [$0, $0, $0] }), width: 5, height: 4, format: .rgb8))
        let model = try MLModel(contentsOf: Self.folder.appendingPathComponent("ImageGray.mlmodel"))
        let batch = try model.predictions(
            fromBatch: MLArrayBatchProvider(dictionary: ["image": [grayRGB, Self.inputImage(gray)]]))
        #expect(batch.count == 2)
        for i in 0..<2 {
            let image = try #require(batch.features(at: i).featureValue(for: "styled")?.imageBufferValue)
            #expect(try Self.pixels(image, gray: true) == gray.pixels, "\(i)")
        }
        let rgbOut = try MLModel(contentsOf: Self.folder.appendingPathComponent("ImageRGB.mlmodel"))
            .predictions(fromBatch: MLArrayBatchProvider(dictionary: ["image": [Self.inputImage(rgb)]]))
        #expect(
            try Self.pixels(
                try #require(rgbOut.features(at: 0).featureValue(for: "styled")?.imageBufferValue), gray: false)
                == rgb.pixels)

        let mixed = try MLArrayBatchProvider(dictionary: [
            "v": [1, 2.5, "x", try MLMultiArray(shape: [2], dataType: .float32)]
        ])
        #expect(
            (0..<4).map { mixed.features(at: $0).featureValue(for: "v")?.type } == [
                .int64, .double, .string, .multiArray,
            ])
        #expect(
            mixed.features(at: 0).featureValue(for: "v")?.int64Value == 1
                && mixed.features(at: 1).featureValue(for: "v")?.doubleValue == 2.5)
        #expect { _ = try MLArrayBatchProvider(dictionary: ["v": [1, Date()]]) } throws: { error in
            "\(error)".contains("'v'[1]") && "\(error)".contains("Date")
        }
        #expect(throws: MLModelError.self) { _ = try MLArrayBatchProvider(dictionary: ["a": [1], "b": [1, 2]]) }
    }

    /// RunModelRequest still gives the output as a multi-array: [1, C, H, W] floats, the model's own values.
    @Test func runModelRequestGivesTheTensor() async throws {
        let m = try #require(Self.expected.models["ImageBGR"])
        let model = try VisionModel(contentsOf: Self.folder.appendingPathComponent("ImageBGR.mlmodel"))
        let info = try #require(model.modelDescription.coreML?.imageOutputs?["styled"])
        #expect(
            info.channels == 3 && info.colorOrder == "bgr" && info.colorSpace == "BGR" && info.width == 5
                && info.height == 4 && !info.flexible)
        let outputs = try await ImageRequestHandler(image: Self.inputImage(m)).perform(RunModelRequest(model: model))
        let styled = try #require(outputs.first { $0.featureName == "styled" })
        #expect(styled.shape == [1, 3, 4, 5])
        for (got, want) in zip(styled.values, m.tensor) { #expect(abs(got - want) <= 1e-3 * max(1, abs(want))) }
    }
}
