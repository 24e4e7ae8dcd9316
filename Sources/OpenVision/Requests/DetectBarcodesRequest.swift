import Foundation

/// Finds and decodes barcodes, as Vision's `DetectBarcodesRequest`, with zxing-cpp 3.1.
/// Finds several codes per image, rotated and light-on-dark ones included.
public struct DetectBarcodesRequest: CompletionHandlingRequest {
    public typealias Result = [BarcodeObservation]

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// The symbologies to look for; all supported ones by default. Fewer is faster.
    public var symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases
    /// Spend more time on hard images (small, blurred, rotated codes). Default true.
    public var tryHarder: Bool = true
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases,
                completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.symbologies = symbologies
        self.completionHandler = completionHandler
    }

    /// Every symbology this build reads.
    public static var supportedSymbologies: [BarcodeSymbology] { BarcodeSymbology.allCases }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard !symbologies.isEmpty else { throw VisionError(.invalidArgument, "symbologies is empty") }
        return try ZXingReader.read(try imageForRegionOfInterest(in: context), symbologies: symbologies, tryHarder: tryHarder)
    }
}
