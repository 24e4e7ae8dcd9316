import OpenVision

/// A barcode symbology, as Vision's (`VNBarcodeSymbology.qr`, `.ean13`, …; raw values as Apple's strings).
public struct VNBarcodeSymbology: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    init(_ s: BarcodeSymbology) {
        rawValue = "VNBarcodeSymbology" + s.rawValue.prefix(1).uppercased() + s.rawValue.dropFirst()
    }

    /// The OpenVision symbology, nil for one zxing-cpp does not read.
    var native: BarcodeSymbology? {
        let name = rawValue.hasPrefix("VNBarcodeSymbology") ? String(rawValue.dropFirst("VNBarcodeSymbology".count)) : rawValue
        return BarcodeSymbology.allCases.first { $0.rawValue.lowercased() == name.lowercased() }
    }

    public static let aztec = VNBarcodeSymbology(.aztec)
    public static let codabar = VNBarcodeSymbology(.codabar)
    public static let code39 = VNBarcodeSymbology(.code39)
    public static let code39FullASCII = VNBarcodeSymbology(.code39FullASCII)
    public static let code93 = VNBarcodeSymbology(.code93)
    public static let code128 = VNBarcodeSymbology(.code128)
    public static let dataMatrix = VNBarcodeSymbology(.dataMatrix)
    public static let ean8 = VNBarcodeSymbology(.ean8)
    public static let ean13 = VNBarcodeSymbology(.ean13)
    public static let itf14 = VNBarcodeSymbology(.itf14)
    public static let pdf417 = VNBarcodeSymbology(.pdf417)
    public static let qr = VNBarcodeSymbology(.qr)
    public static let upce = VNBarcodeSymbology(.upce)
    public static let microQR = VNBarcodeSymbology(.microQR)
    public static let microPDF417 = VNBarcodeSymbology(.microPDF417)
    public static let gs1DataBar = VNBarcodeSymbology(.gs1DataBar)
    public static let gs1DataBarExpanded = VNBarcodeSymbology(.gs1DataBarExpanded)
    public static let gs1DataBarLimited = VNBarcodeSymbology(.gs1DataBarLimited)
}
