import Foundation

/// Text regions in the report (`textRectangles`).
extension AnalysisReport {
    /// One text region (`DetectTextRectanglesRequest`).
    public struct TextRegion: Sendable, Codable, Hashable {
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// Character boxes, left to right; present when `reportCharacterBoxes` was set.
        public var characters: [Box]?
    }

    /// Adds text regions.
    public mutating func add(_ observations: [TextObservation]) {
        textRectangles = observations.map {
            TextRegion(
                confidence: $0.confidence, box: box($0.boundingBox),
                characters: $0.characterBoxes?.map { box($0.boundingBox) })
        }
    }

    static func summary(_ regions: [TextRegion]) -> [String] {
        regions.map {
            String(format: "  text region %.2f ", $0.confidence) + at($0.box)
                + ($0.characters.map { " \($0.count) characters" } ?? "")
        }
    }
}

extension TextObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
