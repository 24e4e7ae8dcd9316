import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Xcode's compiled `.mlmodelc` folders loaded as the source files are and run on ONNX Runtime, against numpy forward
/// passes of the source `.mlmodel`s' own weights (Tests/Fixtures/coreml/compiled/references.json, written by
///
///     /tmp/venv/bin/python scripts/models/coreml_compiled_references.py MNISTClassifier.mlmodel \
///         ../shared/models/coreml-wild/PlayerActionClassifier.mlmodel
///
/// with coremltools 9.0 reading the specs) within 1e-4 relative, and against what the photo shows: the Espresso
/// MNISTClassifier reads the three drawn digits, the ML Program pipeline yolov8n.mlmodelc finds the dog and the
/// bicycle. The synthetic EspressoForms folder is held to its own weights (expected.json,
/// scripts/models/coreml_compiled_fixtures.py). Also Create ML's action classifier (the concatND of a [1, 1] and a
/// [1] shape vector Core ML broadcasts).
@Suite struct CoreMLCompiledModelTests {
    static let wild = Fixtures.shared.appendingPathComponent("models/coreml-wild")
    static let compiled = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/compiled")

    struct Case: Decodable {
        var input: String
        var probabilities: [Double]?
        var poses: [Float]?
    }

    struct Entry: Decodable { var cases: [Case] }

    static func references() throws -> [String: Entry] {
        try JSONDecoder().decode(
            [String: Entry].self, from: Data(contentsOf: compiled.appendingPathComponent("references.json")))
    }

    static func configuration() -> VisionModel.Configuration {
        var c = VisionModel.Configuration()
        c.threads = 1
        c.backend = .onnxRuntime
        return c
    }

    /// The largest difference relative to the reference's largest magnitude (a vector's scale).
    static func relativeError(_ got: [Float], _ want: [Double]) -> Double {
        let scale = want.map(abs).max() ?? 1
        return zip(got, want).map { abs(Double($0) - $1) }.max().map { $0 / max(scale, 1e-30) } ?? .infinity
    }

    /// A 28 × 28 RGB tensor of the pattern image (pixel (y, x) = (37 y + 11 x) mod 256 in each channel).
    static func pattern() -> Tensor {
        let plane = (0..<28).flatMap { y in (0..<28).map { x in Float((37 * y + 11 * x) % 256) } }
        return Tensor(name: "", shape: [1, 3, 28, 28], scalars: plane + plane + plane)
    }

    /// MNISTClassifier.mlmodelc (Espresso) classifies the drawn one, seven and zero with the probabilities its
    /// MNISTClassifier.mlmodel gives, and the pattern image's ten probabilities match within 1e-4.
    @Test func espressoClassifierReadsTheDigits() async throws {
        let model = try VisionModel(
            contentsOf: Self.wild.appendingPathComponent("MNISTClassifier.mlmodelc"),
            configuration: Self.configuration())
        #expect(model.modelDescription.labels == (0...9).map(String.init))
        let cases = try #require(try Self.references()["MNISTClassifier"]).cases
        for digit in cases where digit.input != "pattern" {
            let handler = try ImageRequestHandler(Self.wild.appendingPathComponent("inputs/\(digit.input).png"))
            let top = try #require(try await handler.perform(ClassifyImageRequest(model: model)).first)
            let want = try #require(digit.probabilities)
            let best = want.indices.max { want[$0] < want[$1] }!
            #expect(top.identifier == String(best), "\(digit.input)")
            #expect(abs(Double(top.confidence) - want[best]) <= 1e-4 * want[best], "\(digit.input): \(top.confidence)")
        }
        let pattern = try #require(cases.first { $0.input == "pattern" }?.probabilities)
        var input = Self.pattern()
        input.name = "image"
        let output = try #require(try model.prediction(from: [input]).first)
        #expect(Self.relativeError(output.scalars, pattern) <= 1e-4, "\(output.scalars) vs \(pattern)")
    }

    /// The synthetic folder of every Espresso form gives the probabilities numpy computes from its weights.
    @Test func espressoFormsMatchTheirWeights() throws {
        struct Expected: Decodable {
            var pixels: [Float]?
            var probs: [Double]
        }
        let expected = try JSONDecoder().decode(
            [String: Expected].self, from: Data(contentsOf: Self.compiled.appendingPathComponent("expected.json")))
        let forms = try #require(expected["EspressoForms.mlmodelc"])
        let model = try VisionModel(
            contentsOf: Self.compiled.appendingPathComponent("EspressoForms.mlmodelc"),
            configuration: Self.configuration())
        let image = try #require(model.modelDescription.coreML?.imageInputs["image"])
        // The graph takes scale × pixel + bias per RGB channel (the caller's preprocessing); pixels are H × W × 3.
        let pixels = try #require(forms.pixels)
        let values = (0..<3).flatMap { c in (0..<81).map { pixels[$0 * 3 + c] * image.scale + image.bias[c] } }
        let output = try #require(
            try model.prediction(from: [Tensor(name: "image", shape: [1, 3, 9, 9], scalars: values)]).first)
        #expect(Self.relativeError(output.scalars, forms.probs) <= 1e-5, "\(output.scalars) vs \(forms.probs)")
        #expect(model.modelDescription.labels == ["cat", "dog", "bird"])
    }

    /// The synthetic N-D Espresso network (transposes, reshape, N-D inner product, softmax_nd) gives numpy's
    /// probabilities for its [1, 6, 6, 1] input.
    @Test func espressoNDMatchesItsWeights() throws {
        struct Expected: Decodable {
            var input: [Float]?
            var probs: [Double]
        }
        let expected = try JSONDecoder().decode(
            [String: Expected].self, from: Data(contentsOf: Self.compiled.appendingPathComponent("expected.json")))
        let nd = try #require(expected["EspressoND.mlmodelc"])
        let model = try VisionModel(
            contentsOf: Self.compiled.appendingPathComponent("EspressoND.mlmodelc"), configuration: Self.configuration()
        )
        let input = try #require(nd.input)
        let output = try #require(
            try model.prediction(from: [Tensor(name: "input_1", shape: [1, 6, 6, 1], scalars: input)]).first)
        #expect(Self.relativeError(output.scalars, nd.probs) <= 1e-5, "\(output.scalars) vs \(nd.probs)")
    }

    /// yolov8n.mlmodelc (an ML Program and its NMS stage, compiled by Xcode) finds the dog and the bicycle in dog.jpg
    /// where the photo has them, with the pipeline's own thresholds (IoU 0.45, confidence 0.25) as its inputs' defaults.
    @Test func compiledProgramPipelineDetects() async throws {
        let model = try VisionModel(
            contentsOf: Self.wild.appendingPathComponent("yolov8n.mlmodelc"), configuration: Self.configuration())
        let nms = try #require(model.modelDescription.coreML?.nms)
        #expect(nms.iouThreshold == 0.45 && nms.confidenceThreshold == 0.25)
        let handler = try ImageRequestHandler(Fixtures.sharedImage("dog.jpg"))
        let objects = try await handler.perform(DetectObjectsRequest(model: model))
        let found = Dictionary(
            objects.map { ($0.labels[0].identifier, $0.boundingBox) }, uniquingKeysWith: { a, _ in a })
        // dog.jpg (768 × 576): the dog lower left, the bicycle across the middle (normalised, origin lower left).
        let dog = try #require(found["dog"])
        let bicycle = try #require(found["bicycle"])
        #expect(dog.midX < 0.45 && dog.midY < 0.5 && dog.height > 0.4, "\(dog)")
        #expect(bicycle.midX > 0.3 && bicycle.midX < 0.65 && bicycle.width > 0.4, "\(bicycle)")
    }

    /// PlayerActionClassifier (Create ML's action classifier, whose decoder concatenates a [1, 1] and a [1] shape vector
    /// along axis 0, a [2, 1] for Core ML) converts and gives numpy's probabilities for two pose sequences.
    @Test func actionClassifierConvertsAndAnswers() throws {
        let model = try VisionModel(
            contentsOf: Self.wild.appendingPathComponent("PlayerActionClassifier.mlmodel"),
            configuration: Self.configuration())
        #expect(model.modelDescription.labels == ["none", "overhand", "underhand", "underleg"])
        for sequence in try #require(try Self.references()["PlayerActionClassifier"]).cases {
            let poses = try #require(sequence.poses)
            let want = try #require(sequence.probabilities)
            let output = try #require(
                try model.prediction(from: [Tensor(name: "poses", shape: [45, 3, 18], scalars: poses)]).first)
            #expect(Self.relativeError(output.scalars, want) <= 1e-4, "\(sequence.input): \(output.scalars) vs \(want)")
        }
    }
}
