/// A request's results as they report themselves: their entry in an `AnalysisReport` (JSON), what to draw, and
/// their image-valued parts (maps, masks, flow fields). Every built-in request's results are one: a request says
/// which through `VisionRequest.reportable(_:)`, checked by the compiler, and the report, the CLI (`--maps`,
/// `--annotate`, text), the live viewer, the JSON Lines and the HTTP API read nothing else.
public protocol ReportableResult: Sendable {
    /// Puts these results into `report` (relative to the request's region of interest, as returned). `files`
    /// holds what was written for each of `maps` (`--maps`, or inline in the HTTP API), by map name, if anything.
    func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles])
    /// What to draw for these results, in the coordinates they carry (the request's region of interest).
    var overlayItems: [OverlayItem] { get }
    /// The image-valued parts, each named within these results ("" for the only one). Default: none.
    var maps: [(name: String, map: PixelBufferObservation)] { get }
}

extension ReportableResult {
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { [] }

    /// Puts these results into `report`, with no map files.
    public func add(to report: inout AnalysisReport) { add(to: &report, files: [:]) }
}

/// An observation type whose arrays are `ReportableResult`s.
public protocol ReportableObservation: Sendable {
    /// Puts a request's observations of this type into `report`.
    static func add(_ observations: [Self], to report: inout AnalysisReport)
    /// What to draw for this observation.
    var overlayItems: [OverlayItem] { get }
}

extension Array: ReportableResult where Element: ReportableObservation {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        Element.add(self, to: &report)
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { flatMap(\.overlayItems) }
}

/// A request that may find nothing (horizon, document, a sequence's first frame): nil adds nothing and draws nothing.
extension Optional: ReportableResult where Wrapped: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        self?.add(to: &report, files: files)
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { self?.overlayItems ?? [] }
    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { self?.maps ?? [] }
}

/// Results that have no entry in the report and nothing to draw (the single-object trackers, requests of your own
/// whose results you report yourself).
public struct UnreportedResult: ReportableResult {
    /// The value for requests whose results are not reported.
    public init() {}
    /// Adds nothing: these results have no entry in the report.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {}
    /// Nothing: these results have nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}

/// Where the image-valued parts of results go when they are written (`analyze --maps DIR`, the HTTP API's
/// `maps=true`): given the map, the request's name and the map's name within its results, what was written.
public protocol MapOutput: Sendable {
    /// Writes `map` (the map `name` of request `request`'s results) and returns what was written;
    /// throws `VisionError` when it cannot be written.
    func write(_ map: PixelBufferObservation, request: String, name: String) throws(VisionError)
        -> AnalysisReport.MapFiles
}
