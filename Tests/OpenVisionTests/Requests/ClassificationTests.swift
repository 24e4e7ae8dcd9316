import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The default classifier (EfficientNet-Lite0 converted by scripts/setup), feature prints, raw outputs.
@Suite struct ClassificationTests {
    // Reference: Python onnxruntime 1.31.1 on the same ONNX file, resize shorter side to 256, centre
    // crop 224, (x - 127) / 128, RGB (scripts/models/verify_classifier.py):
    //   dog.jpg   → malamute 0.378, German shepherd 0.280, Eskimo dog 0.024 …
    //   eagle.jpg → kite 0.482, bald eagle 0.227, vulture 0.034 …
    // OpenVision's centre crop scales the shorter side straight to 224 (Vision's .centerCrop), so
    // probabilities differ slightly; the top classes agree.
    // Decoded at full size here: from a file, the handler decodes at the scale the model needs,
    // which ReducedDecodeTests checks against its own reference.
    @Test func dogAndEagle() async throws {
        let dogImage = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let dog = try await ImageRequestHandler(image: dogImage).perform(ClassifyImageRequest())
        #expect(dog.count == 5)
        #expect(dog[0].identifier.hasPrefix("malamute"), "\(dog.map(\.identifier))")
        #expect(abs(dog[0].confidence - 0.378) < 0.05)
        #expect(dog.prefix(2).contains { $0.identifier.hasPrefix("German shepherd") })
        let eagle = try await ImageRequestHandler(Fixtures.sharedImage("eagle.jpg")).perform(ClassifyImageRequest())
        #expect(Set(eagle.prefix(2).map { $0.identifier.components(separatedBy: ",")[0] }) == ["kite", "bald eagle"])
        // Probabilities: sorted, and a distribution.
        #expect(zip(eagle, eagle.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        var all = ClassifyImageRequest()
        all.maximumObservations = 0
        let everything = try await ImageRequestHandler(Fixtures.sharedImage("eagle.jpg")).perform(all)
        #expect(everything.count == 1000)
        #expect(abs(everything.reduce(0) { $0 + $1.confidence } - 1) < 1e-3)
    }

    @Test func featurePrintsAreCloserForSimilarImages() async throws {
        let dogImage = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let mirrored = try dogImage.oriented(.upMirrored)
        let dog = try await ImageRequestHandler(image: dogImage).perform(GenerateImageFeaturePrintRequest())
        let dogMirrored = try await ImageRequestHandler(image: mirrored).perform(GenerateImageFeaturePrintRequest())
        let eagle = try await ImageRequestHandler(Fixtures.sharedImage("eagle.jpg")).perform(
            GenerateImageFeaturePrintRequest())
        #expect(dog.elementCount == 1280)
        let near = try dog.distance(to: dogMirrored)
        let far = try dog.distance(to: eagle)
        #expect(near < far / 2, "mirrored \(near) vs eagle \(far)")
        #expect(try dog.distance(to: dog) < 1e-5)
    }

    @Test func rawOutputs() async throws {
        let url = try #require(ModelLocator.find("efficientnet-lite0.onnx"), "run scripts/setup")
        let model = try VisionModel(contentsOf: url)
        #expect(model.modelDescription.preprocessing.width == 224)
        #expect(model.modelDescription.labels.count == 1000)
        let outputs = try await ImageRequestHandler(Fixtures.sharedImage("dog.jpg")).perform(
            RunModelRequest(model: model))
        #expect(outputs.map(\.featureName) == ["logits", "features"])
        #expect(outputs[0].shape == [1, 1000] && outputs[1].shape == [1, 1280])
    }
}
