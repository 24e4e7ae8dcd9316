import OpenVision

/// Vision's barcode reader (OpenVision's `DetectBarcodesRequest`, zxing-cpp).
open class VNDetectBarcodesRequest: VNImageBasedRequest {
    /// The symbologies to look for; every supported one by default.
    public var symbologies: [VNBarcodeSymbology] = VNDetectBarcodesRequest.supportedSymbologies
    public static var supportedSymbologies: [VNBarcodeSymbology] { BarcodeSymbology.allCases.map(VNBarcodeSymbology.init) }
    public func supportedSymbologies() throws -> [VNBarcodeSymbology] { Self.supportedSymbologies }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectBarcodesRequest()
        request.symbologies = symbologies.compactMap(\.native)
        return try perform(request, in: context).map(VNBarcodeObservation.init)
    }
}
