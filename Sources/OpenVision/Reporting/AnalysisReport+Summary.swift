import Foundation
internal import OpenVisionConverters

/// The `--format text` rendering of a report: the image and its size, then one line per result (pixel boxes),
/// then warnings, errors and timings. Each entry's lines are written beside its wire type
/// (`Observations/<Observation>+Report.swift`); `summarySections` lists every entry of the report once.
extension AnalysisReport {
    /// The report as text lines, for a terminal: control characters and bidirectional marks in what images and
    /// models bring (recognised text, barcode payloads, labels, file names) are written as `\u{…}`
    /// (`TerminalText`), so a value is never more than its line.
    public var summary: String {
        var lines = ["\(image) (\(width)×\(height))"]
        for section in summarySections { lines += section.lines }
        for w in warnings ?? [] { lines.append("  warning: \(w)") }
        for (name, e) in (errors ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("  error \(name): \(e.message) [\(e.code)]")
        }
        for (name, ms) in (timingsMs ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append(String(format: "  time %@ %.1f ms", name, ms))
        }
        return lines.map { TerminalText.escaped($0, limit: .max) }.joined(separator: "\n")
    }

    /// Every result entry, by its JSON key, with its text lines (empty when absent), in text order. A test holds
    /// it to the report's stored properties, so an entry without text lines does not pass.
    var summarySections: [(key: String, lines: [String])] {
        [
            ("barcodes", barcodes.map(Self.summary) ?? []),
            ("rectangles", rectangles.map(Self.summary) ?? []),
            ("faces", faces.map(Self.summary) ?? []),
            ("text", text.map(Self.summary) ?? []),
            ("objects", objects.map { Self.summary(objects: $0) } ?? []),
            ("animals", animals.map { Self.summary(animals: $0) } ?? []),
            ("humans", humans.map(Self.summary) ?? []),
            ("hands", hands.map(Self.summary) ?? []),
            ("bodyPoses", bodyPoses.map(Self.summary) ?? []),
            ("bodyPoses3D", bodyPoses3D.map(Self.summary) ?? []),
            ("personMask", personMask.map { Self.summary(personMask: $0) } ?? []),
            ("personInstances", personInstances.map { Self.summary(personInstances: $0) } ?? []),
            ("foregroundInstances", foregroundInstances.map { Self.summary(foregroundInstances: $0) } ?? []),
            ("aesthetics", aesthetics.map { Self.summary(aesthetics: $0) } ?? []),
            ("classifications", classifications.map { Self.summary(classifications: $0) } ?? []),
            ("featurePrint", featurePrint.map { Self.summary(featurePrint: $0) } ?? []),
            ("outputs", outputs.map { Self.summary(outputs: $0) } ?? []),
            ("translation", translation.map(Self.summary) ?? []),
            ("homography", homography.map(Self.summary) ?? []),
            ("opticalFlow", opticalFlow.map(Self.summary) ?? []),
            ("trajectories", trajectories.map(Self.summary) ?? []),
            ("contours", contours.map(Self.summary) ?? []),
            ("horizon", horizon.map(Self.summary) ?? []),
            ("saliency", saliency.map { Self.summary("saliency", $0) } ?? []),
            ("objectness", objectness.map { Self.summary("objectness", $0) } ?? []),
            ("textRectangles", textRectangles.map(Self.summary) ?? []),
            ("document", document.map { Self.summary(document: $0) } ?? []),
            ("documents", documents.map { Self.summary(documents: $0) } ?? []),
            ("events", events.map(Self.summary) ?? []),
            ("counting", counting.map(Self.summary) ?? []),
            ("anchors", anchors.map(Self.summary) ?? []),
            ("topLabel", topLabel.map { [String(format: "  top label %@ %.2f", $0.identifier, $0.confidence)] } ?? []),
        ]
    }

    /// "at x=… y=… w=… h=…" of a box in pixels.
    static func at(_ b: Box) -> String {
        String(format: "at x=%.0f y=%.0f w=%.0f h=%.0f", b.pixels.x, b.pixels.y, b.pixels.width, b.pixels.height)
    }
}
