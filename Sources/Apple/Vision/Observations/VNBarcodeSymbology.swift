import OpenVision

/// A barcode symbology, as Vision's (`VNBarcodeSymbology.qr`, `.ean13`, …; raw values as Apple's strings).
public struct VNBarcodeSymbology: Hashable, RawRepresentable, Sendable {
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }

    init(_ s: BarcodeSymbology) {
        rawValue = "VNBarcodeSymbology" + s.rawValue.prefix(1).uppercased() + s.rawValue.dropFirst()
    }

    /// The OpenVision symbology, nil for one zxing-cpp does not read.
    var native: BarcodeSymbology? {
        let name =
            rawValue.hasPrefix("VNBarcodeSymbology") ? String(rawValue.dropFirst("VNBarcodeSymbology".count)) : rawValue
        return BarcodeSymbology.allCases.first { $0.rawValue.lowercased() == name.lowercased() }
    }

    /// Aztec Code (2D). Read with zxing-cpp.
    public static let aztec = VNBarcodeSymbology(.aztec)
    /// Codabar (1D). Read with zxing-cpp.
    public static let codabar = VNBarcodeSymbology(.codabar)
    /// Code 39 (1D). Read with zxing-cpp.
    public static let code39 = VNBarcodeSymbology(.code39)
    /// Code 39 with full ASCII (1D). Read with zxing-cpp.
    public static let code39FullASCII = VNBarcodeSymbology(.code39FullASCII)
    /// Code 93 (1D). Read with zxing-cpp.
    public static let code93 = VNBarcodeSymbology(.code93)
    /// Code 128 (1D). Read with zxing-cpp.
    public static let code128 = VNBarcodeSymbology(.code128)
    /// Data Matrix (2D). Read with zxing-cpp.
    public static let dataMatrix = VNBarcodeSymbology(.dataMatrix)
    /// EAN-8 (1D). Read with zxing-cpp.
    public static let ean8 = VNBarcodeSymbology(.ean8)
    /// EAN-13 (1D). Read with zxing-cpp.
    public static let ean13 = VNBarcodeSymbology(.ean13)
    /// ITF-14 (1D). Read with zxing-cpp.
    public static let itf14 = VNBarcodeSymbology(.itf14)
    /// PDF417 (stacked 2D). Read with zxing-cpp.
    public static let pdf417 = VNBarcodeSymbology(.pdf417)
    /// QR Code (2D). Read with zxing-cpp.
    public static let qr = VNBarcodeSymbology(.qr)
    /// UPC-E (1D). Read with zxing-cpp.
    public static let upce = VNBarcodeSymbology(.upce)
    /// Micro QR Code (2D). Read with zxing-cpp.
    public static let microQR = VNBarcodeSymbology(.microQR)
    /// MicroPDF417 (stacked 2D). Read with zxing-cpp.
    public static let microPDF417 = VNBarcodeSymbology(.microPDF417)
    /// GS1 DataBar (1D). Read with zxing-cpp.
    public static let gs1DataBar = VNBarcodeSymbology(.gs1DataBar)
    /// GS1 DataBar Expanded (1D). Read with zxing-cpp.
    public static let gs1DataBarExpanded = VNBarcodeSymbology(.gs1DataBarExpanded)
    /// GS1 DataBar Limited (1D). Read with zxing-cpp.
    public static let gs1DataBarLimited = VNBarcodeSymbology(.gs1DataBarLimited)
}
