import Foundation

/// An optical-flow field in the report (`opticalFlow`).
extension AnalysisReport {
    /// A dense optical-flow field: its size and files (`--maps`) and summary statistics.
    public struct Flow: Sendable, Codable, Hashable {
        /// 2 channels: dx, dy in pixels (y down).
        public var field: Map
        /// Mean displacement in pixels (y down).
        public var meanDx: Double
        /// Mean vertical displacement in pixels (y down).
        public var meanDy: Double
        /// The largest displacement's length in pixels.
        public var maximumMagnitude: Double
    }

    /// Adds an optical-flow field (a 2-channel pixel buffer) with its mean and largest displacement.
    public mutating func add(flow observation: PixelBufferObservation) {
        opticalFlow = flowEntry(observation, files: nil)
    }

    func flowEntry(_ observation: PixelBufferObservation, files: MapFiles?) -> Flow {
        let stats = observation.flowStatistics
        return Flow(
            field: Map(observation, files: files), meanDx: stats.meanDx, meanDy: stats.meanDy,
            maximumMagnitude: stats.maximumMagnitude)
    }

    static func summary(_ f: Flow) -> [String] {
        [
            String(
                format: "  optical flow %d×%d mean dx=%.2f dy=%.2f max %.2f px", f.field.width, f.field.height,
                f.meanDx, f.meanDy,
                f.maximumMagnitude) + (f.field.png.map { " → \($0)" } ?? "")
        ]
    }
}

/// `GenerateOpticalFlowRequest`'s and `TrackOpticalFlowRequest`'s result: a 2-channel field (dx, dy in pixels),
/// reported under `opticalFlow` and drawn as arrows.
public struct OpticalFlowReport: ReportableResult {
    /// The 2-channel flow field (dx, dy in pixels, y down).
    public var field: PixelBufferObservation
    /// Wraps `field` for reporting.
    public init(_ field: PixelBufferObservation) { self.field = field }
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.opticalFlow = report.flowEntry(field, files: files[""])
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.flowArrows(for: field) }
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { [("", field)] }
}
