import Foundation

/// Classifications in the report (`classifications`).
extension AnalysisReport {
    /// Adds classifications.
    public mutating func add(_ observations: [ClassificationObservation]) {
        classifications = observations.map { Label(identifier: $0.identifier, confidence: $0.confidence) }
    }

    static func summary(classifications: [Label]) -> [String] {
        classifications.map { String(format: "  %.3f  %@", $0.confidence, $0.identifier) }
    }
}

extension ClassificationObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// Classes cover the whole image: nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}
