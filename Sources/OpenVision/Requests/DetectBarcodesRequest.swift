import Foundation

/// Finds and decodes barcodes, as Vision's `DetectBarcodesRequest`, with zxing-cpp 3.1.
/// Finds several codes per image, rotated and light-on-dark ones included.
public struct DetectBarcodesRequest: CompletionHandlingRequest {
    /// One `BarcodeObservation` per finding; empty when there is none.
    public typealias Result = [BarcodeObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// The symbologies to look for; all supported ones by default. Fewer is faster.
    public var symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases
    /// Spend more time on hard images (small, blurred, rotated codes). Default true.
    public var tryHarder: Bool = true
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(
        symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases,
        completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        self.symbologies = symbologies
        self.completionHandler = completionHandler
    }

    /// Every symbology this build reads.
    public static var supportedSymbologies: [BarcodeSymbology] { BarcodeSymbology.allCases }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard !symbologies.isEmpty else { throw VisionError(.invalidArgument, "symbologies is empty") }
        return try ZXingReader.read(
            try imageForRegionOfInterest(in: context), symbologies: symbologies, tryHarder: tryHarder)
    }
}
