import Foundation

/// The horizon in the report (`horizon`).
extension AnalysisReport {
    /// The horizon's tilt and the rotation that levels it (`DetectHorizonRequest`).
    public struct Horizon: Sendable, Codable, Hashable {
        /// Counter-clockwise as seen, in degrees, -45...45.
        public var angleDegrees: Double
        /// The same in radians (Vision's `VNHorizonObservation.angle`).
        public var angle: Double
        /// The levelling rotation about the origin: [m11, m12, m21, m22, tX, tY] (Foundation's `AffineTransform`).
        public var transform: [Double]
    }

    /// Adds a horizon.
    public mutating func add(_ observation: HorizonObservation) {
        let t = observation.transform
        horizon = Horizon(
            angleDegrees: observation.angle.converted(to: .degrees).value, angle: observation.radians,
            transform: [t.m11, t.m12, t.m21, t.m22, t.tX, t.tY])
    }

    static func summary(_ h: Horizon) -> [String] { [String(format: "  horizon %.1f°", h.angleDegrees)] }
}

extension HorizonObservation: ReportableResult {
    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) { report.add(self) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
