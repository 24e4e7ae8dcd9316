import Foundation

/// A homography in the report (`homography`).
extension AnalysisReport {
    /// A homography aligning a target image (or frame) with its reference (`ImageHomographicAlignmentObservation`).
    public struct Homography: Sendable, Codable, Hashable {
        /// Target → reference, row-major, lower-left pixel coordinates (Vision's `warpTransform`).
        public var warpTransform: [Double]
        /// The same in top-left pixel coordinates (OpenCV's, for `cv2.warpPerspective`).
        public var openCVTransform: [Double]
        /// The observation's confidence, 0...1.
        public var confidence: Float
    }

    /// Adds a homography.
    public mutating func add(_ observation: ImageHomographicAlignmentObservation) {
        homography = Homography(
            warpTransform: observation.warpTransform.rowMajor, openCVTransform: observation.openCVTransform.rowMajor,
            confidence: observation.confidence)
    }

    static func summary(_ h: Homography) -> [String] {
        [
            "  homography (lower-left origin) "
                + h.warpTransform.map { String(format: "%.4g", $0) }.joined(separator: " ")
                + String(format: " confidence %.2f", h.confidence)
        ]
    }
}

extension ImageHomographicAlignmentObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// Nothing: these results have nothing to draw.
    public var overlayItems: [OverlayItem] { [] }
}
