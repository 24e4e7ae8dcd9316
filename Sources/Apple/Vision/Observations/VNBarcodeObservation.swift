import Foundation
import OpenVision

/// A barcode: symbology, payload and corners, as Vision's.
open class VNBarcodeObservation: VNRectangleObservation {
    /// Which kind of barcode was read.
    public let symbology: VNBarcodeSymbology
    /// The payload as text; nil when the symbol has none (zxing-cpp's text, binary bytes as ISO 8859-1).
    public let payloadStringValue: String?
    /// The raw payload bytes (Vision's `payloadData`, iOS 17).
    public let payloadData: Data?
    /// True when the symbol was read light-on-dark.
    public let isColorInverted: Bool
    /// True when the payload follows GS1's format (FNC1 first).
    public let isGS1DataCarrier: Bool

    init(_ o: BarcodeObservation) {
        symbology = VNBarcodeSymbology(o.symbology)
        payloadStringValue = o.payloadString
        payloadData = o.payloadData
        isColorInverted = o.isColorInverted
        isGS1DataCarrier = o.isGS1DataCarrier
        super.init(o)
    }
}
