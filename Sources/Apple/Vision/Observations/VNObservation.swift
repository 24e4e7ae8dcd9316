import Foundation

/// Vision's abstract result: an identifier and a confidence (0...1).
open class VNObservation {
    /// A unique identifier for this observation.
    public let uuid: UUID
    /// How confident the request is, 0...1 (1 where the algorithm gives no score).
    public let confidence: VNConfidence

    init(uuid: UUID = UUID(), confidence: VNConfidence) {
        self.uuid = uuid
        self.confidence = confidence
    }
}

/// Observations are objects: equal and hashed by identity.
extension VNObservation: Hashable {
    /// Identity: equal only to itself (Vision's `isEqual:` on objects).
    public static func == (lhs: VNObservation, rhs: VNObservation) -> Bool { lhs === rhs }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
