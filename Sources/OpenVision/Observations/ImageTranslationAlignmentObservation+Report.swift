import Foundation

/// A translation in the report (`translation`).
extension AnalysisReport {
    /// A translation aligning a target image (or frame) with its reference (`ImageTranslationAlignmentObservation`).
    public struct Translation: Sendable, Codable, Hashable {
        /// Pixels, lower-left origin, y up (Vision's convention).
        public var tx: Double
        /// Vertical translation in pixels, y up.
        public var ty: Double
        /// The observation's confidence, 0...1.
        public var confidence: Float
    }

    /// Adds a translation.
    public mutating func add(_ observation: ImageTranslationAlignmentObservation) {
        translation = Translation(tx: observation.tx, ty: observation.ty, confidence: observation.confidence)
    }

    static func summary(_ t: Translation) -> [String] {
        [String(format: "  translation tx=%.2f ty=%.2f (lower-left origin) confidence %.2f", t.tx, t.ty, t.confidence)]
    }
}

extension ImageTranslationAlignmentObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// A translation has no place in the image: nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}
