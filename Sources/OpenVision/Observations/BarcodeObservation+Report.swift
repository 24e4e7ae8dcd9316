/// Barcodes in the report (`barcodes`).
extension AnalysisReport {
    /// One barcode (`DetectBarcodesRequest`).
    public struct Barcode: Sendable, Codable, Hashable {
        /// The symbology's name (`BarcodeSymbology.rawValue`, e.g. "qr", "ean13").
        public var symbology: String
        /// The payload as text; nil when the symbol has none (see `BarcodeObservation.payloadStringValue`).
        public var payload: String?
        /// The payload's bytes, Base64-encoded (always present, binary content included).
        public var payloadBase64: String
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// True when the symbol was read light-on-dark.
        public var isColorInverted: Bool
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// topLeft, topRight, bottomRight, bottomLeft.
        public var corners: [Point]
    }

    /// Adds barcode observations (relative to the full image).
    public mutating func add(_ observations: [BarcodeObservation]) {
        barcodes = observations.map {
            Barcode(
                symbology: $0.symbology.rawValue, payload: $0.payloadString,
                payloadBase64: $0.payloadData.base64EncodedString(), confidence: $0.confidence,
                isColorInverted: $0.isColorInverted, box: box($0.boundingBox), corners: $0.corners.map(point))
        }
    }

    static func summary(_ barcodes: [Barcode]) -> [String] {
        barcodes.map { "  barcode \($0.symbology) \"\($0.payload ?? "<binary>")\" " + at($0.box) }
    }
}

extension BarcodeObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
