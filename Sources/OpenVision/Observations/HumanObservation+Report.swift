import Foundation

/// People in the report (`humans`).
extension AnalysisReport {
    /// One person (`DetectHumanRectanglesRequest`).
    public struct Human: Sendable, Codable, Hashable {
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// True when the box covers head and torso only.
        public var upperBodyOnly: Bool
    }

    /// Adds people (`DetectHumanRectanglesRequest`).
    public mutating func add(_ observations: [HumanObservation]) {
        humans = observations.map {
            Human(confidence: $0.confidence, box: box($0.boundingBox), upperBodyOnly: $0.upperBodyOnly)
        }
    }

    static func summary(_ humans: [Human]) -> [String] {
        humans.map {
            String(format: "  human%@ %.2f ", $0.upperBodyOnly ? " (upper body)" : "", $0.confidence) + at($0.box)
        }
    }
}

extension HumanObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] {
        [.box(boundingBox, label: upperBodyOnly ? "upper body" : "person", confidence: confidence)]
    }
}
