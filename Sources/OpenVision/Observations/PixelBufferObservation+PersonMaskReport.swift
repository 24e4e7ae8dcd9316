import Foundation

/// The person mask in the report (`personMask`).
extension AnalysisReport {
    /// Adds a person-segmentation mask's size.
    public mutating func add(personMask observation: PixelBufferObservation) {
        personMask = Map(observation, files: nil)
    }

    static func summary(personMask m: Map) -> [String] {
        ["  person mask \(m.width)×\(m.height)" + (m.png.map { " → \($0)" } ?? "")]
    }
}

/// `GeneratePersonSegmentationRequest`'s result: a 1-channel mask, reported under `personMask` and blended in
/// (up to half opacity where the mask is 1).
public struct PersonMaskReport: ReportableResult {
    /// The 1-channel person mask, 0...1.
    public var mask: PixelBufferObservation
    /// Wraps `mask` for reporting.
    public init(_ mask: PixelBufferObservation) { self.mask = mask }
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.personMask = AnalysisReport.Map(mask, files: files[""])
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { [.heatMap(mask, opacity: 0.5)] }
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { [("", mask)] }
}
