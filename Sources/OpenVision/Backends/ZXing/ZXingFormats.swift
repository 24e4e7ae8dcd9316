internal import CZXing

/// The mapping between OpenVision's symbologies and zxing-cpp 3.1's barcode formats.
enum ZXingFormats {
    /// zxing formats to ask for when reading each symbology.
    static func readerFormats(for symbology: BarcodeSymbology) -> [ZXing_BarcodeFormat] {
        switch symbology {
        case .aztec: [ZXing_BarcodeFormat_Aztec]
        case .codabar: [ZXing_BarcodeFormat_Codabar]
        case .code39: [ZXing_BarcodeFormat_Code39Std]
        case .code39FullASCII: [ZXing_BarcodeFormat_Code39Ext]
        case .code32: [ZXing_BarcodeFormat_Code32]
        case .pzn: [ZXing_BarcodeFormat_PZN]
        case .code93: [ZXing_BarcodeFormat_Code93]
        case .code128: [ZXing_BarcodeFormat_Code128]
        case .dataMatrix: [ZXing_BarcodeFormat_DataMatrix]
        case .ean8: [ZXing_BarcodeFormat_EAN8]
        case .ean13: [ZXing_BarcodeFormat_EAN13, ZXing_BarcodeFormat_ISBN]
        case .upca: [ZXing_BarcodeFormat_UPCA]
        case .upce: [ZXing_BarcodeFormat_UPCE]
        case .i2of5: [ZXing_BarcodeFormat_ITF]
        case .itf14: [ZXing_BarcodeFormat_ITF14]
        case .gs1DataBar:
            [ZXing_BarcodeFormat_DataBarOmni, ZXing_BarcodeFormat_DataBarStk, ZXing_BarcodeFormat_DataBarStkOmni]
        case .gs1DataBarExpanded: [ZXing_BarcodeFormat_DataBarExp, ZXing_BarcodeFormat_DataBarExpStk]
        case .gs1DataBarLimited: [ZXing_BarcodeFormat_DataBarLtd]
        case .pdf417: [ZXing_BarcodeFormat_PDF417, ZXing_BarcodeFormat_CompactPDF417]
        case .microPDF417: [ZXing_BarcodeFormat_MicroPDF417]
        case .qr: [ZXing_BarcodeFormat_QRCode]
        case .microQR: [ZXing_BarcodeFormat_MicroQRCode]
        case .rmQR: [ZXing_BarcodeFormat_RMQRCode]
        case .maxiCode: [ZXing_BarcodeFormat_MaxiCode]
        case .dxFilmEdge: [ZXing_BarcodeFormat_DXFilmEdge]
        case .telepen: [ZXing_BarcodeFormat_TelepenAlpha, ZXing_BarcodeFormat_TelepenNumeric]
        }
    }

    /// The zxing format used to create each creatable symbology.
    static func creatorFormat(for symbology: BarcodeSymbology) -> ZXing_BarcodeFormat? {
        switch symbology {
        case .aztec: ZXing_BarcodeFormat_Aztec
        case .codabar: ZXing_BarcodeFormat_Codabar
        case .code39: ZXing_BarcodeFormat_Code39
        case .code93: ZXing_BarcodeFormat_Code93
        case .code128: ZXing_BarcodeFormat_Code128
        case .dataMatrix: ZXing_BarcodeFormat_DataMatrix
        case .ean8: ZXing_BarcodeFormat_EAN8
        case .ean13: ZXing_BarcodeFormat_EAN13
        case .upca: ZXing_BarcodeFormat_UPCA
        case .upce: ZXing_BarcodeFormat_UPCE
        case .i2of5: ZXing_BarcodeFormat_ITF
        case .pdf417: ZXing_BarcodeFormat_PDF417
        case .qr: ZXing_BarcodeFormat_QRCode
        case .telepen: ZXing_BarcodeFormat_Telepen
        default: nil
        }
    }

    /// The symbology of a format zxing reported (a specific variant), or nil for one we do not name.
    static func symbology(for format: ZXing_BarcodeFormat) -> BarcodeSymbology? {
        for symbology in BarcodeSymbology.allCases where readerFormats(for: symbology).contains(format) {
            return symbology
        }
        switch ZXing_BarcodeFormatSymbology(format) {
        case ZXing_BarcodeFormat_Code39: return .code39
        case ZXing_BarcodeFormat_EANUPC: return .ean13
        case ZXing_BarcodeFormat_QRCode: return .qr
        case ZXing_BarcodeFormat_PDF417: return .pdf417
        case ZXing_BarcodeFormat_Aztec: return .aztec
        case ZXing_BarcodeFormat_DataBar: return .gs1DataBar
        case ZXing_BarcodeFormat_ITF: return .i2of5
        case ZXing_BarcodeFormat_Telepen: return .telepen
        default: return nil
        }
    }
}
