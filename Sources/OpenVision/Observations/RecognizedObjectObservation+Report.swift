import Foundation

/// Detected objects in the report (`objects`; `animals` for `RecognizeAnimalsRequest`).
extension AnalysisReport {
    /// One detected object (`DetectObjectsRequest`, `RecognizeAnimalsRequest`).
    public struct Object: Sendable, Codable, Hashable {
        /// The top label's identifier.
        public var label: String
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// Labels with confidences, best first.
        public var labels: [Label]
        /// The object's track ID when the live pipeline tracks objects (`video|live --track`); absent for an
        /// object that is not (yet) a confirmed track.
        public var trackID: Int?
    }

    /// Adds detected objects.
    public mutating func add(_ observations: [RecognizedObjectObservation]) {
        objects = observations.map(object)
    }

    /// Adds animals (`RecognizeAnimalsRequest`) under `animals`.
    public mutating func addAnimals(_ observations: [RecognizedObjectObservation]) {
        animals = observations.map(object)
    }

    private func object(_ o: RecognizedObjectObservation) -> Object {
        Object(
            label: o.labels.first?.identifier ?? "?", confidence: o.confidence, box: box(o.boundingBox),
            labels: o.labels.map { Label(identifier: $0.identifier, confidence: $0.confidence) })
    }

    /// A table: label, confidence, pixel box.
    static func summary(objects: [Object]) -> [String] {
        objects.map { o in
            let label = o.label.padding(toLength: max(14, o.label.count), withPad: " ", startingAt: 0)
            return "  \(label)"
                + String(
                    format: " %.2f  x=%4.0f y=%4.0f w=%4.0f h=%4.0f", o.confidence,
                    o.box.pixels.x, o.box.pixels.y, o.box.pixels.width, o.box.pixels.height)
        }
    }

    static func summary(animals: [Object]) -> [String] {
        animals.map { String(format: "  animal %@ %.2f ", $0.label, $0.confidence) + at($0.box) }
    }
}

extension RecognizedObjectObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] {
        [.box(boundingBox, label: labels.first?.identifier ?? "?", confidence: confidence)]
    }
}

/// `RecognizeAnimalsRequest`'s results: objects, reported under `animals`.
public struct AnimalsReport: ReportableResult {
    /// The animals found.
    public var animals: [RecognizedObjectObservation]
    /// Wraps `animals` for reporting.
    public init(_ animals: [RecognizedObjectObservation]) { self.animals = animals }
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.addAnimals(animals)
    }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { animals.overlayItems }
}
