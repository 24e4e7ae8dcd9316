/// Barcode symbologies, named as Vision's `BarcodeSymbology` where Vision has the symbology.
/// `allCases` is every symbology zxing-cpp 3.1 reads; the ones Vision lacks (rMQR, MaxiCode, DX film
/// edge, Telepen, Code 32, PZN) are extensions.
public enum BarcodeSymbology: String, Sendable, Hashable, Codable, CaseIterable {
    /// Aztec Code (2D).
    case aztec
    /// Codabar (1D).
    case codabar
    /// Code 39 (1D).
    case code39
    /// Code 39 with the full ASCII extension.
    case code39FullASCII
    /// Code 32 (Italian pharmacode), a Code 39 variant; the payload is the 9-digit code.
    case code32
    /// Pharmazentralnummer (German pharmacode), a Code 39 variant.
    case pzn
    /// Code 93 (1D).
    case code93
    /// Code 128 (1D).
    case code128
    /// Data Matrix (2D).
    case dataMatrix
    /// EAN-8 (1D).
    case ean8
    /// EAN-13 (1D).
    case ean13
    /// UPC-A (1D).
    case upca
    /// UPC-E (1D).
    case upce
    /// Interleaved 2 of 5.
    case i2of5
    /// ITF-14, the GS1 Interleaved 2 of 5 carton code (1D).
    case itf14
    /// GS1 DataBar Omnidirectional (1D).
    case gs1DataBar
    /// GS1 DataBar Expanded (1D).
    case gs1DataBarExpanded
    /// GS1 DataBar Limited (1D).
    case gs1DataBarLimited
    /// PDF417 (stacked 2D).
    case pdf417
    /// MicroPDF417 (stacked 2D).
    case microPDF417
    /// QR Code (2D).
    case qr
    /// Micro QR Code (2D).
    case microQR
    /// Rectangular Micro QR.
    case rmQR
    /// MaxiCode (2D).
    case maxiCode
    /// DX film edge code (35 mm film).
    case dxFilmEdge
    /// Telepen (alpha and numeric).
    case telepen

    /// Symbologies the barcode generator can write (for tests and labels).
    public static let creatable: [BarcodeSymbology] = [
        .aztec, .codabar, .code39, .code93, .code128, .dataMatrix, .ean8, .ean13, .upca, .upce, .i2of5, .pdf417, .qr,
        .telepen,
    ]
}
