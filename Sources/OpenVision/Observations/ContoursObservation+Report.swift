import Foundation

/// Contours in the report (`contours`).
extension AnalysisReport {
    /// `DetectContoursRequest`'s tree, flattened (parents before children).
    public struct Contours: Sendable, Codable, Hashable {
        /// The number of contours at every level.
        public var contourCount: Int
        /// The number of outermost contours.
        public var topLevelContourCount: Int
        /// Every contour, parents before children.
        public var contours: [ContourEntry]
    }

    /// One contour of the flattened tree.
    public struct ContourEntry: Sendable, Codable, Hashable {
        /// Position in the tree: [i] top level, [i, j] its j-th child, …
        public var indexPath: [Int]
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// The outline's points, normalised only ([x, y], lower-left origin), closed.
        public var points: [[Float]]
    }

    /// Adds a contour tree.
    public mutating func add(_ observation: ContoursObservation) {
        contours = Contours(
            contourCount: observation.contourCount, topLevelContourCount: observation.topLevelContourCount,
            contours: observation.allContours.map {
                ContourEntry(
                    indexPath: Array($0.indexPath), box: box($0.boundingBox),
                    points: $0.normalizedPoints.map { [$0.x, $0.y] })
            })
    }

    static func summary(_ c: Contours) -> [String] {
        ["  contours \(c.contourCount) (\(c.topLevelContourCount) top-level)"]
    }
}

extension ContoursObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
