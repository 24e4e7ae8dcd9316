import Foundation
import OpenVision

/// A barcode: symbology, payload and corners, as Vision's.
open class VNBarcodeObservation: VNRectangleObservation {
    public let symbology: VNBarcodeSymbology
    public let payloadStringValue: String?
    /// The raw payload bytes (Vision's `payloadData`, iOS 17).
    public let payloadData: Data?
    public let isColorInverted: Bool
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
