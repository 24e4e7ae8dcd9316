import Foundation

/// Recognised text in the report (`text`).
extension AnalysisReport {
    /// One line of recognised text (`RecognizeTextRequest`).
    public struct TextLine: Sendable, Codable, Hashable {
        /// The line's best candidate text.
        public var string: String
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// The line's words, in reading order.
        public var words: [Word]
        /// topLeft, topRight, bottomRight, bottomLeft in reading order (a rotated quadrilateral for a
        /// rotated line on `.accurate`; the box's corners on `.fast`).
        public var corners: [Point]? = nil
        /// Degrees the page's text was found turned clockwise (90, 180, 270; `textOrientation` `.left`, `.down`,
        /// `.right`) and read upright; absent for a page read as given.
        public var orientationDegrees: Int? = nil
    }

    /// One recognised word.
    public struct Word: Sendable, Codable, Hashable {
        /// The word's text.
        public var string: String
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
    }

    /// Adds recognised text lines (best candidate).
    public mutating func add(_ observations: [RecognizedTextObservation]) {
        text = observations.compactMap { line in
            guard let best = line.candidates.first else { return nil }
            return TextLine(
                string: best.string, confidence: best.confidence, box: box(line.boundingBox),
                words: best.words.map { Word(string: $0.string, confidence: $0.confidence, box: box($0.boundingBox)) },
                corners: line.corners.map(point),
                orientationDegrees: line.textOrientation.clockwiseDegrees.flatMap { $0 == 0 ? nil : $0 })
        }
    }

    static func summary(_ text: [TextLine]) -> [String] {
        text.map {
            String(format: "  text %.2f \"%@\" ", $0.confidence, $0.string) + at($0.box)
                + ($0.orientationDegrees.map { " (page turned \($0)°)" } ?? "")
        }
    }
}

extension RecognizedTextObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// The line's box and string; character boxes are left to `OverlayItem.items(for:characterBoxes:)`.
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self, characterBoxes: false) }
}
