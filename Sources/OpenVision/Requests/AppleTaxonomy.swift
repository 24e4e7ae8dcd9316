import Foundation

/// Apple Vision's classification taxonomy: the 1,303 identifiers `VNClassifyImageRequest` answers, and ImageNet-1k's
/// classes mapped onto them through WordNet's hypernyms (made by scripts/models/apple_taxonomy.py; docs/requests.md).
///
/// An identifier's confidence is the sum of the classifier's probabilities over the ImageNet classes that carry it, so
/// "dog" gathers every dog breed, and "animal" every animal; or, when higher, the best score of the built-in COCO-80
/// detector's objects that carry it (ImageNet has no person and one horse breed: "people" and "horse" come from
/// there). Identifiers neither names ("outdoor", "sky") stay at 0.
public enum AppleTaxonomy {
    /// Apple's identifiers, in Apple's order (`VNClassifyImageRequest.knownClassifications(forRevision:)`).
    public static let identifiers: [String] = identifiersText.split(whereSeparator: \.isWhitespace).map(String.init)

    /// For each ImageNet-1k class, the indices into `identifiers` of the identifiers it carries.
    static let imageNetIdentifiers: [[Int]] = {
        var table = [[Int]](repeating: [], count: 1000)
        for line in imageNetText.split(separator: "\n") {
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            guard let first = numbers.first, table.indices.contains(first) else { continue }
            table[first] = Array(numbers.dropFirst())
        }
        return table
    }()

    /// For each class name of the built-in detector (COCO-80), the indices into `identifiers` it carries.
    static let cocoIdentifiers: [String: [Int]] = {
        var table: [String: [Int]] = [:]
        for line in cocoText.split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2 else { continue }
            table[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].split(separator: " ").compactMap { Int($0) }
        }
        return table
    }()

    /// Apple's identifiers with their confidences from a classifier's class probabilities, all 1,303, most confident
    /// first (ties in Apple's order); throws `invalidArgument` unless the classes are ImageNet-1k's (1000, or 1001 with
    /// a leading "background").
    public static func classifications(fromProbabilities probabilities: [Float], labels: [String]) throws(VisionError)
        -> [ClassificationObservation]
    {
        let imageNet: ArraySlice<Float>
        switch probabilities.count {
        case 1000 where labels.isEmpty || labels.first?.lowercased().hasPrefix("tench") == true:
            imageNet = probabilities[...]
        case 1001 where labels.first?.lowercased() == "background":
            imageNet = probabilities.dropFirst()
        default:
            throw VisionError(
                .invalidArgument,
                "Apple's taxonomy maps ImageNet-1k's classes; this model has \(probabilities.count) classes"
                    + (labels.first.map { " (first label '\($0.prefix(40))')" } ?? ""))
        }
        var confidences = [Float](repeating: 0, count: identifiers.count)
        for (offset, probability) in imageNet.enumerated() where probability > 0 {
            for identifier in imageNetIdentifiers[offset] { confidences[identifier] += probability }
        }
        return ranked(confidences.map { min(1, $0) })
    }

    /// `classifications` with the built-in detector's `objects` (COCO-80 labels) added: each identifier an object's
    /// label carries gets the label's score where that is higher. Identifiers not in Apple's list are dropped.
    public static func merging(_ classifications: [ClassificationObservation], objects: [RecognizedObjectObservation])
        -> [ClassificationObservation]
    {
        var confidences = [Float](repeating: 0, count: identifiers.count)
        for observation in classifications {
            if let i = index[observation.identifier] { confidences[i] = max(confidences[i], observation.confidence) }
        }
        for label in objects.flatMap(\.labels) {
            for i in cocoIdentifiers[label.identifier] ?? [] { confidences[i] = max(confidences[i], label.confidence) }
        }
        return ranked(confidences)
    }

    /// Each identifier's position in `identifiers`.
    private static let index: [String: Int] = Dictionary(
        uniqueKeysWithValues: identifiers.enumerated().map { ($1, $0) })

    /// Observations for `confidences` (one per identifier), most confident first, ties in Apple's order.
    private static func ranked(_ confidences: [Float]) -> [ClassificationObservation] {
        let order = confidences.indices.sorted {
            confidences[$0] > confidences[$1] || (confidences[$0] == confidences[$1] && $0 < $1)
        }
        return order.map { ClassificationObservation(identifier: identifiers[$0], confidence: confidences[$0]) }
    }
}
