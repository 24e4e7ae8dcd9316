import Foundation

/// A document in the report (`document`).
extension AnalysisReport {
    /// Adds a document's quadrilateral.
    public mutating func add(_ observation: DetectedDocumentObservation) {
        document = Rectangle(
            confidence: observation.confidence, box: box(observation.boundingBox),
            corners: observation.corners.map(point))
    }

    static func summary(document d: Rectangle) -> [String] {
        [String(format: "  document %.2f ", d.confidence) + at(d.box)]
    }
}

extension DetectedDocumentObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
