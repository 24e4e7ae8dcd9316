import Foundation

/// Hands in the report (`hands`).
extension AnalysisReport {
    /// One hand (`DetectHumanHandPoseRequest`).
    public struct Hand: Sendable, Codable, Hashable {
        /// The hand presence score.
        public var confidence: Float
        /// "left" or "right" (the person's own hand), or "unknown".
        public var chirality: String
        /// How sure the chirality is, 0...1.
        public var chiralityConfidence: Float
        /// The joints' bounding box.
        public var box: Box
        /// Vision's 21 joints, wrist first, then thumb, index, middle, ring and little finger, base to tip.
        public var joints: [Joint]
    }

    /// Adds hands (`DetectHumanHandPoseRequest`).
    public mutating func add(_ observations: [HumanHandPoseObservation]) {
        hands = observations.map(handEntry)
    }

    /// One hand's entry.
    func handEntry(_ hand: HumanHandPoseObservation) -> Hand {
        Hand(
            confidence: hand.confidence, chirality: hand.chirality.rawValue,
            chiralityConfidence: hand.chiralityConfidence,
            box: box(hand.boundingBox),
            joints: hand.joints.map { joint in
                Joint(name: joint.identifier, confidence: joint.confidence, point: point(joint.location))
            })
    }

    static func summary(_ hands: [Hand]) -> [String] {
        hands.map { h in
            var line = String(format: "  hand %@ %.2f ", h.chirality, h.confidence) + at(h.box)
            if let wrist = h.joints.first, let tip = h.joints.first(where: { $0.name == "indexTip" }) {
                line += String(
                    format: " wrist=(%.0f,%.0f) indexTip=(%.0f,%.0f)", wrist.point.pixels.x, wrist.point.pixels.y,
                    tip.point.pixels.x, tip.point.pixels.y)
            }
            return line
        }
    }
}

extension HumanHandPoseObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
