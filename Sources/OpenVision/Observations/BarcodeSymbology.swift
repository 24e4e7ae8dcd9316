/// Barcode symbologies, named as Vision's `BarcodeSymbology` where Vision has the symbology.
public enum BarcodeSymbology: String, Sendable, Hashable, Codable, CaseIterable {
    case aztec
    case codabar
    case code39
    /// Code 39 with the full ASCII extension.
    case code39FullASCII
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

    /// Symbologies the barcode generator can write (for tests and labels).
    public static let creatable: [BarcodeSymbology] = [
        .aztec, .codabar, .code39, .code93, .code128, .dataMatrix, .ean8, .ean13, .upca, .upce, .i2of5, .pdf417, .qr,
    ]
}
