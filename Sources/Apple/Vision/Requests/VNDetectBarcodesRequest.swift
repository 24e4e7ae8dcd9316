import Foundation
import OpenVision

/// Vision's barcode reader (OpenVision's `DetectBarcodesRequest`, zxing-cpp).
open class VNDetectBarcodesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNBarcodeObservation]? { storedResults as? [VNBarcodeObservation] }
    /// Apple's revisions 1, 2, 3, 4 (`VNDetectBarcodesRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3, 4]) }
    /// Apple's default: revision 4.
    override open class var defaultRevision: Int { VNDetectBarcodesRequestRevision4 }
    /// Vision's current revision, `VNDetectBarcodesRequestRevision4`.
    override open class var currentRevision: Int { VNDetectBarcodesRequestRevision4 }

    /// The symbologies to look for; every supported one by default.
    public var symbologies: [VNBarcodeSymbology] = VNDetectBarcodesRequest.supportedSymbologies
    /// Every symbology zxing-cpp reads here (Apple's class property).
    public static var supportedSymbologies: [VNBarcodeSymbology] {
        BarcodeSymbology.allCases.map(VNBarcodeSymbology.init)
    }
    /// Every symbology zxing-cpp reads here (Apple's instance method); never throws here.
    public func supportedSymbologies() throws -> [VNBarcodeSymbology] { Self.supportedSymbologies }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectBarcodesRequest()
        request.symbologies = symbologies.compactMap(\.native)
        return try perform(request, in: context).map(VNBarcodeObservation.init)
    }
}
