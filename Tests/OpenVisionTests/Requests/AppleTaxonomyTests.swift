import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Apple's classification identifiers (`ClassifyImageRequest.taxonomy = .apple`): the list, the ImageNet-1k mapping
/// through WordNet (scripts/models/apple_taxonomy.py), the built-in detector's objects, and the answers on the shared
/// photos.
@Suite struct AppleTaxonomyTests {
    /// ImageNet-1k's dog breeds are classes 151…268 (118 classes, "Chihuahua" to "Mexican hairless"); WordNet's
    /// dog.n.01 is the hypernym of exactly those. Reference, on Debian's WordNet 3.0 with NLTK:
    /// `[i for i, w in enumerate(wnids) if wn.synset('dog.n.01') in wn.synset_from_pos_and_offset('n', int(w[1:]))
    ///  .closure(lambda s: s.hypernyms() + s.instance_hypernyms())]` == list(range(151, 269)).
    static let dogBreeds = 151...268

    @Test func identifiersAreApples() {
        let identifiers = AppleTaxonomy.identifiers
        #expect(identifiers.count == 1303)
        #expect(identifiers == identifiers.sorted() && Set(identifiers).count == 1303)
        #expect(identifiers.first == "abacus" && identifiers.last == "zucchini")
        for word in ["dog", "canine", "german_shepherd", "people", "horse", "bird", "raptor", "alligator_crocodile"] {
            #expect(identifiers.contains(word), "\(word)")
        }
    }

    /// An identifier's confidence is the sum of the ImageNet probabilities of the classes under it: "dog" is the sum
    /// over the 118 breeds, computed here from the plain classifier's own answers; the hierarchy only adds up.
    @Test func confidencesSumTheClassesUnderAnIdentifier() async throws {
        var plain = ClassifyImageRequest()
        plain.maximumObservations = 0
        let handler = try ImageRequestHandler(image: VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg")))
        let imageNet = try await handler.perform(plain)
        let labels = try ClassifyImageRequest().resolvedModel().modelDescription.labels
        // Two labels repeat ("crane" the bird and the machine, "maillot"), none of them a dog.
        let byLabel = Dictionary(imageNet.map { ($0.identifier, $0.confidence) }, uniquingKeysWith: { a, _ in a })
        let probabilities = labels.map { byLabel[$0] ?? 0 }
        let apple = try AppleTaxonomy.classifications(fromProbabilities: probabilities, labels: labels)
        let confidence = Dictionary(uniqueKeysWithValues: apple.map { ($0.identifier, $0.confidence) })
        let dogs = Self.dogBreeds.reduce(Float(0)) { $0 + probabilities[$1] }
        #expect(abs((confidence["dog"] ?? -1) - dogs) < 1e-5)
        #expect(dogs > 0.8)
        let chain = ["german_shepherd", "sheepdog", "dog", "canine", "mammal", "animal"].map { confidence[$0] ?? -1 }
        #expect(zip(chain, chain.dropFirst()).allSatisfy { $0 <= $1 + 1e-6 }, "\(chain)")
        #expect(abs((confidence["german_shepherd"] ?? -1) - probabilities[235]) < 1e-6)
        #expect(apple.count == 1303 && (confidence["outdoor"] ?? -1) == 0)
        #expect(zip(apple, apple.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
    }

    /// What a reader expects of each shared photo is among the first answers; ImageNet has no person and one horse
    /// breed, so "people" and "horse" come from the built-in detector's objects.
    @Test func sharedPhotosAnswerWhatTheyShow() async throws {
        let expected = [
            ("dog.jpg", "dog", 3), ("eagle.jpg", "bird", 2), ("horses.jpg", "horse", 5), ("person.jpg", "people", 1),
        ]
        for (photo, identifier, rank) in expected {
            var request = ClassifyImageRequest()
            request.taxonomy = .apple
            request.maximumObservations = 8
            let answers = try await ImageRequestHandler(Fixtures.sharedImage(photo)).perform(request)
            #expect(answers.count == 8)
            #expect(
                answers.prefix(rank).contains { $0.identifier == identifier }, "\(photo): \(answers.map(\.identifier))")
        }
    }

    @Test func detectedObjectsAddTheirIdentifiers() {
        let horse = RecognizedObjectObservation(
            boundingBox: NormalizedRect(x: 0.1, y: 0.1, width: 0.3, height: 0.3),
            labels: [ClassificationObservation(identifier: "horse", confidence: 0.8)])
        let unknown = RecognizedObjectObservation(
            boundingBox: NormalizedRect(x: 0.5, y: 0.5, width: 0.2, height: 0.2),
            labels: [ClassificationObservation(identifier: "unicorn", confidence: 0.99)])
        let before = [ClassificationObservation(identifier: "animal", confidence: 0.9)]
        let merged = AppleTaxonomy.merging(before, objects: [horse, unknown])
        let confidence = Dictionary(uniqueKeysWithValues: merged.map { ($0.identifier, $0.confidence) })
        #expect(merged.count == 1303)
        #expect(confidence["animal"] == 0.9 && confidence["horse"] == 0.8 && confidence["ungulates"] == 0.8)
        #expect(confidence["mammal"] == 0.8 && confidence["dog"] == 0)
        #expect(merged.prefix(5).map(\.identifier) == ["animal", "horse", "mammal", "ungulates", "abacus"])
    }

    @Test func otherModelsAreRefused() {
        #expect {
            _ = try AppleTaxonomy.classifications(fromProbabilities: [Float](repeating: 0.1, count: 10), labels: [])
        } throws: { ($0 as? VisionError)?.code == .invalidArgument }
        #expect {
            _ = try AppleTaxonomy.classifications(
                fromProbabilities: [Float](repeating: 0.001, count: 1000),
                labels: ["cat"] + Array(repeating: "x", count: 999))
        } throws: { ($0 as? VisionError)?.code == .invalidArgument }
    }
}
