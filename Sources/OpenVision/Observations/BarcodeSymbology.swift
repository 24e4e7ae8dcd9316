/// Barcode symbologies, named as Vision's `BarcodeSymbology` where Vision has the symbology.
/// `allCases` is every symbology zxing-cpp 3.1 reads; the ones Vision lacks (rMQR, MaxiCode, DX film
/// edge, Telepen, Code 32, PZN) are extensions.
public enum BarcodeSymbology: String, Sendable, Hashable, Codable, CaseIterable {
    case aztec
    case codabar
    case code39
    /// Code 39 with the full ASCII extension.
    case code39FullASCII
    /// Code 32 (Italian pharmacode), a Code 39 variant; the payload is the 9-digit code.
    case code32
    /// Pharmazentralnummer (German pharmacode), a Code 39 variant.
    case pzn
    case code93
    case code128
    case dataMatrix
    case ean8
    case ean13
    case upca
    case upce
    /// Interleaved 2 of 5.
    case i2of5
    case itf14
    case gs1DataBar
    case gs1DataBarExpanded
    case gs1DataBarLimited
    case pdf417
    case microPDF417
    case qr
    case microQR
    /// Rectangular Micro QR.
    case rmQR
    case maxiCode
    case dxFilmEdge
    /// Telepen (alpha and numeric).
    case telepen

    /// Symbologies the barcode generator can write (for tests and labels).
    public static let creatable: [BarcodeSymbology] = [
        .aztec, .codabar, .code39, .code93, .code128, .dataMatrix, .ean8, .ean13, .upca, .upce, .i2of5, .pdf417, .qr, .telepen,
    ]
}
