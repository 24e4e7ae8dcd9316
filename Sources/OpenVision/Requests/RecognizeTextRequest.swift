import Foundation

/// Recognises lines of text, as Vision's `RecognizeTextRequest`: `.fast` with Tesseract 5's LSTM
/// engine, `.accurate` with PP-OCRv4 (DB text detection, 0°/180° angle classification, CRNN
/// recognition with CTC) on ONNX Runtime.
public struct RecognizeTextRequest: CompletionHandlingRequest {
    /// One `RecognizedTextObservation` per finding; empty when there is none.
    public typealias Result = [RecognizedTextObservation]

    /// Speed/accuracy trade-off.
    public enum RecognitionLevel: String, Sendable, Hashable, Codable, CaseIterable {
        /// Tesseract 5 with the installed (integer, "fast") models: documents and scans, 100+ languages,
        /// axis-aligned lines.
        case fast
        /// PP-OCRv4 (the models of PyPI `rapidocr-onnxruntime` 1.4.4, installed by scripts/setup): photos of
        /// signs, screens and receipts, rotated lines (rotated quadrilaterals), text at 90°/180°/270°;
        /// English and Simplified Chinese only.
        case accurate
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// `.fast` reads only the gray plane; `.accurate` reads colour (the PP-OCR models take BGR).
    public var requiresColor: Bool { recognitionLevel == .accurate }
    /// Languages in priority order, as BCP-47 codes ("en-US", "de") or Tesseract codes ("eng").
    /// Default ["en-US"]. `.fast`: a language whose Tesseract data is not installed is an
    /// `unsupportedLanguage` error. `.accurate`: PP-OCRv4's one Chinese + English model reads every
    /// supported language at once; "en…"/"eng" and "zh"/"zh-Hans"/"zh-CN"/"chi_sim" are accepted,
    /// anything else is `unsupportedLanguage` (see `supportedRecognitionLanguages(for:)`).
    public var recognitionLanguages: [String] = ["en-US"]
    /// Lines shorter than this fraction of the image height are dropped. Default 0 (keep all).
    /// On `.accurate` the height is the line's text height (across a rotated line, not its box's).
    public var minimumTextHeight: Float = 0
    /// Default `.fast`.
    public var recognitionLevel: RecognitionLevel = .fast
    /// Find a page turned 90°, 180° or 270° (a scan fed upside down, a phone held sideways) and read it
    /// upright; each line reports the orientation found (`RecognizedTextObservation.textOrientation`), its boxes
    /// stay relative to the image as given. `.fast`: Tesseract's OSD (osd.traineddata) when the page as given
    /// reads poorly; `.accurate`: a vote of the line-orientation classifier over the page's lines. An upright page
    /// that reads well costs nothing extra. Off, the page is read as given (and `textOrientation` is `.up`).
    /// Not in Apple's Vision, which expects the caller's orientation. Default true.
    public var automaticallyDetectsOrientation: Bool = true
    /// Vision's language-correction switch, kept for source compatibility. It changes nothing on
    /// either level: `.fast` always applies Tesseract's own language model (the word lists in its
    /// traineddata), and `.accurate` has no language model (PP-OCR's CTC decoding reads characters
    /// only). Default true.
    public var usesLanguageCorrection: Bool = true
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Installed languages as Tesseract codes (e.g. "eng"); BCP-47 names map onto them.
    public static func supportedRecognitionLanguages() -> [String] {
        OCREnginePool.installedLanguages()
    }

    /// The languages a level reads: `.fast` the installed Tesseract languages (as
    /// `supportedRecognitionLanguages()`), `.accurate` ["en-US", "zh-Hans"] (PP-OCRv4's
    /// Chinese + English dictionary of 6,623 characters: Latin letters, digits, punctuation, CJK).
    public static func supportedRecognitionLanguages(for level: RecognitionLevel) -> [String] {
        switch level {
        case .fast: supportedRecognitionLanguages()
        case .accurate: ["en-US", "zh-Hans"]
        }
    }

    /// True when `.accurate` (PP-OCRv4's Chinese + English model) reads `language`.
    static func accurateSupports(_ language: String) -> Bool {
        let lower = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if lower == "eng" || lower == "en" || lower.hasPrefix("en-") { return true }
        if lower == "chi-sim" || lower == "zh" || lower == "zh-hans" || lower.hasPrefix("zh-hans-") || lower == "zh-cn"
        {
            return true
        }
        return false
    }

    private static let bcp47ToTesseract: [String: String] = [
        "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld",
        "sv": "swe", "da": "dan", "no": "nor", "nb": "nor", "fi": "fin", "pl": "pol", "cs": "ces",
        "ru": "rus", "uk": "ukr", "tr": "tur", "el": "ell", "ar": "ara", "he": "heb", "hi": "hin",
        "ja": "jpn", "ko": "kor", "zh-hans": "chi_sim", "zh-hant": "chi_tra", "zh": "chi_sim",
        "vi": "vie", "th": "tha", "id": "ind", "ro": "ron", "hu": "hun",
    ]

    /// Maps "en-US" → "eng", "zh-Hans" → "chi_sim"; Tesseract codes pass through.
    static func tesseractCode(for language: String) -> String {
        let lower = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if lower.hasPrefix("zh-hant") || lower == "zh-tw" || lower == "zh-hk" { return "chi_tra" }
        if lower.hasPrefix("zh") { return "chi_sim" }
        if let mapped = bcp47ToTesseract[lower] { return mapped }
        if let base = lower.split(separator: "-").first, lower.contains("-"),
            let mapped = bcp47ToTesseract[String(base)]
        {
            return mapped
        }
        return language
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard !recognitionLanguages.isEmpty else {
            throw VisionError(.invalidArgument, "recognitionLanguages is empty")
        }
        guard (0...1).contains(minimumTextHeight) else {
            throw VisionError(.invalidArgument, "minimumTextHeight must be 0...1, not \(minimumTextHeight)")
        }
        if recognitionLevel == .accurate {
            for language in recognitionLanguages where !Self.accurateSupports(language) {
                throw VisionError(
                    .unsupportedLanguage,
                    "'\(language)' is not supported by recognitionLevel .accurate "
                        + "(PP-OCRv4 reads English and Simplified Chinese: en-US, zh-Hans); use .fast for other languages"
                )
            }
            let image = try imageForRegionOfInterest(in: context)
            return try PPOCRRecognizer.shared().recognize(
                image, minimumTextHeightPixels: minimumTextHeight * Float(image.height),
                detectsOrientation: automaticallyDetectsOrientation)
        }
        let codes = recognitionLanguages.map(Self.tesseractCode(for:))
        for code in codes where code.isEmpty || code.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw VisionError(.unsupportedLanguage, "'\(code)' is not a valid language code")
        }
        let image = try imageForRegionOfInterest(in: context)
        let minimumPixels = Int32((minimumTextHeight * Float(image.height)).rounded(.down))
        return try TesseractRecognizer.recognize(
            image, languages: codes, minimumTextHeightPixels: minimumPixels,
            detectsOrientation: automaticallyDetectsOrientation)
    }
}
