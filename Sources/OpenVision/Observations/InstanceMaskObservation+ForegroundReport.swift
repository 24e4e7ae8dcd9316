import Foundation

extension AnalysisReport {
    static func summary(foregroundInstances f: PersonInstances) -> [String] {
        [
            "  foreground instances \(f.mask.width)×\(f.mask.height): \(f.instances.count)"
                + (f.mask.png.map { " → \($0)" } ?? "")
        ]
            + f.instances.map { "  object \($0.index): \($0.pixels) px " + at($0.box) }
    }
}

/// `GenerateForegroundInstanceMaskRequest`'s result: reported under `foregroundInstances` with the entry of
/// `personInstances` (the mask's size and files, each instance's number, pixel count and box), each object blended in a
/// colour of its own. The map written is the instance mask divided by 255 (PNG gray level = instance number).
public struct ForegroundInstancesReport: ReportableResult {
    /// The instance mask to report.
    public var observation: InstanceMaskObservation
    /// Wraps `observation` for reporting.
    public init(_ observation: InstanceMaskObservation) { self.observation = observation }

    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.foregroundInstances = PersonInstancesReport.entry(observation, in: report, files: files)
    }

    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { PersonInstancesReport.overlayItems(observation) }

    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { PersonInstancesReport.maps(observation) }
}
