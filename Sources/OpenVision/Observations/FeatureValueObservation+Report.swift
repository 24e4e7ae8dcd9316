import Foundation

/// Raw model outputs in the report (`outputs`).
extension AnalysisReport {
    /// One raw model output (`RunModelRequest`): values only up to `maximumReportedValues`.
    public struct Output: Sendable, Codable, Hashable {
        /// The output's name in the model.
        public var name: String
        /// The output's dimensions, outermost first.
        public var shape: [Int]
        /// Every value, row-major; nil when the output has more than `maximumReportedValues`.
        public var values: [Float]?
    }

    /// Adds raw model outputs.
    public mutating func add(_ observations: [FeatureValueObservation]) {
        outputs = observations.map {
            Output(
                name: $0.featureName, shape: $0.shape,
                values: $0.values.count <= Self.maximumReportedValues ? $0.values : nil)
        }
    }

    static func summary(outputs: [Output]) -> [String] {
        outputs.map { o in
            "  output \(o.name) [\(o.shape.map(String.init).joined(separator: "×"))]"
                + (o.values.map { v in
                    " " + v.prefix(4).map { String(format: "%.4g", $0) }.joined(separator: " ")
                        + (v.count > 4 ? " …" : "")
                } ?? "")
        }
    }
}

extension FeatureValueObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// Nothing: these results have nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}
