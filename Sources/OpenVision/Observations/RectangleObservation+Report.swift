import Foundation

/// Rectangles in the report (`rectangles`; also the shape of `document` and of salient objects).
extension AnalysisReport {
    /// One rectangle: its corners and box.
    public struct Rectangle: Sendable, Codable, Hashable {
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// topLeft, topRight, bottomRight, bottomLeft.
        public var corners: [Point]
    }

    /// Adds rectangle observations.
    public mutating func add(_ observations: [RectangleObservation]) {
        rectangles = observations.map(rectangle)
    }

    func rectangle(_ r: RectangleObservation) -> Rectangle {
        Rectangle(confidence: r.confidence, box: box(r.boundingBox), corners: r.corners.map(point))
    }

    static func summary(_ rectangles: [Rectangle]) -> [String] {
        rectangles.map { String(format: "  rectangle %.2f ", $0.confidence) + at($0.box) }
    }
}

extension RectangleObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
