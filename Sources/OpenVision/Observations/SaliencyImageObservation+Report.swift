import Foundation

/// Saliency in the report: `saliency` (attention-based) and `objectness` (`ObjectnessReport`).
extension AnalysisReport {
    /// A saliency heat map and the salient objects found in it.
    public struct Saliency: Sendable, Codable, Hashable {
        /// The heat map's size and, with `--maps`, its files (values 0...1).
        public var heatMap: Map
        /// Most confident first.
        public var salientObjects: [Rectangle]
    }

    /// Adds an attention-based saliency result under `saliency`.
    public mutating func add(_ observation: SaliencyImageObservation) {
        saliency = saliencyEntry(observation, files: nil)
    }

    func saliencyEntry(_ observation: SaliencyImageObservation, files: MapFiles?) -> Saliency {
        Saliency(
            heatMap: Map(observation.heatMap, files: files), salientObjects: observation.salientObjects.map(rectangle))
    }

    static func summary(_ name: String, _ s: Saliency) -> [String] {
        ["  \(name) \(s.heatMap.width)×\(s.heatMap.height) map" + (s.heatMap.png.map { " → \($0)" } ?? "")]
            + s.salientObjects.map { String(format: "    salient %.2f ", $0.confidence) + at($0.box) }
    }
}

/// Attention-based saliency (`GenerateAttentionBasedSaliencyImageRequest`): `saliency`, its heat map the one map.
extension SaliencyImageObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.saliency = report.saliencyEntry(self, files: files[""])
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { [("", heatMap)] }
}

/// `GenerateObjectnessBasedSaliencyImageRequest`'s result: a saliency observation reported under `objectness`
/// and drawn as objects.
public struct ObjectnessReport: ReportableResult {
    /// The saliency observation to report.
    public var saliency: SaliencyImageObservation
    /// Wraps `saliency` for reporting.
    public init(_ saliency: SaliencyImageObservation) { self.saliency = saliency }
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.objectness = report.saliencyEntry(saliency, files: files[""])
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: saliency, objectness: true) }
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { [("", saliency.heatMap)] }
}
