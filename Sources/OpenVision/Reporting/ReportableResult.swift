/// A request's results that can describe themselves in an `AnalysisReport` (JSON) and as overlays,
/// so reports, the CLI, the live viewer and `annotated(with:)` need no per-type code. Every
/// built-in request's `Result` conforms; arrays of `ReportableObservation`s conform.
public protocol ReportableResult: Sendable {
    /// Puts these results into `report` (relative to the request's region of interest, as returned).
    func add(to report: inout AnalysisReport)
    /// What to draw for these results, in the coordinates they carry (the request's region of interest).
    var overlayItems: [OverlayItem] { get }
}

/// An observation type whose arrays are `ReportableResult`s.
public protocol ReportableObservation: Sendable {
    /// Puts a request's observations of this type into `report`.
    static func add(_ observations: [Self], to report: inout AnalysisReport)
    /// What to draw for this observation.
    var overlayItems: [OverlayItem] { get }
}

extension Array: ReportableResult where Element: ReportableObservation {
    public func add(to report: inout AnalysisReport) { Element.add(self, to: &report) }
    public var overlayItems: [OverlayItem] { flatMap(\.overlayItems) }
}

extension BarcodeObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension RectangleObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension FaceObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension HumanHandPoseObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension RecognizedTextObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// The line's box and string; character boxes are left to `OverlayItem.items(for:characterBoxes:)`.
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self, characterBoxes: false) }
}

extension RecognizedObjectObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] {
        [.box(boundingBox, label: labels.first?.identifier ?? "?", confidence: confidence)]
    }
}

extension HumanObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] {
        [.box(boundingBox, label: upperBodyOnly ? "upper body" : "person", confidence: confidence)]
    }
}

extension ClassificationObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// Classes cover the whole image: nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}

extension FeatureValueObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { [] }
}

extension FeaturePrintObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { [] }
}

/// A request that may find nothing (horizon, document): nil adds nothing and draws nothing.
extension Optional: ReportableResult where Wrapped: ReportableResult {
    public func add(to report: inout AnalysisReport) { self?.add(to: &report) }
    public var overlayItems: [OverlayItem] { self?.overlayItems ?? [] }
}

extension ContoursObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension HorizonObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension SaliencyImageObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension TextObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension DetectedDocumentObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}

extension ImageTranslationAlignmentObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    /// A translation has no place in the image: nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}

extension ImageHomographicAlignmentObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) { report.add(self) }
    public var overlayItems: [OverlayItem] { [] }
}

/// Pixel buffers report as what their feature name says: an optical-flow field (JSON `opticalFlow`,
/// drawn as arrows) or a person mask (JSON `personMask`, blended in); other maps are reported by the observation that holds them (saliency).
extension PixelBufferObservation: ReportableResult {
    public func add(to report: inout AnalysisReport) {
        if featureName == GenerateOpticalFlowRequest.featureName, channels == 2 { report.add(flow: self) }
        if featureName == GeneratePersonSegmentationRequest.featureName, channels == 1 { report.add(personMask: self) }
    }

    /// Flow fields as arrows; person masks blended in (up to half opacity where the mask is 1).
    public var overlayItems: [OverlayItem] {
        if featureName == GeneratePersonSegmentationRequest.featureName && channels == 1 { return [.heatMap(self, opacity: 0.5)] }
        return featureName == GenerateOpticalFlowRequest.featureName && channels == 2 ? OverlayItem.flowArrows(for: self) : []
    }
}

extension TrajectoryObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
