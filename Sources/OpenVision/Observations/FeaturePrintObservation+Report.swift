import Foundation

/// A feature print in the report (`featurePrint`).
extension AnalysisReport {
    /// Adds a feature print.
    public mutating func add(_ observation: FeaturePrintObservation) {
        featurePrint = observation.data
    }

    static func summary(featurePrint: [Float]) -> [String] {
        let norm = featurePrint.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
        return [String(format: "  feature print %d values, L2 norm %.3f", featurePrint.count, norm)]
    }
}

extension FeaturePrintObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// Nothing: these results have nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}
