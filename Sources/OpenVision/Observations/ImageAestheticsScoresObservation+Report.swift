import Foundation

/// Aesthetics scores in the report (`aesthetics`).
extension AnalysisReport {
    /// An image's aesthetics scores (`CalculateImageAestheticsScoresRequest`).
    public struct Aesthetics: Sendable, Codable, Hashable {
        /// −1…1, higher for better photos.
        public var overallScore: Float
        /// True for documents, screenshots, receipts and whiteboards.
        public var isUtility: Bool
    }

    /// Adds aesthetics scores.
    public mutating func add(_ observation: ImageAestheticsScoresObservation) {
        aesthetics = Aesthetics(overallScore: observation.overallScore, isUtility: observation.isUtility)
    }

    static func summary(aesthetics a: Aesthetics) -> [String] {
        [String(format: "  aesthetics %.2f", a.overallScore) + (a.isUtility ? " (utility)" : "")]
    }
}

extension ImageAestheticsScoresObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// A label with the score (and "utility") at the image's top-left corner.
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
