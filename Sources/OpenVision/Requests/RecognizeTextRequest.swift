import Foundation

/// Recognises lines of text, as Vision's `RecognizeTextRequest`, with Tesseract 5's LSTM engine.
public struct RecognizeTextRequest: CompletionHandlingRequest {
    public typealias Result = [RecognizedTextObservation]
    public var reportName: String { "text" }

    /// Speed/accuracy trade-off. `.fast` uses the installed (integer, "fast") Tesseract models.
    public enum RecognitionLevel: String, Sendable, Hashable, Codable {
        case fast
    }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Languages in priority order, as BCP-47 codes ("en-US", "de") or Tesseract codes ("eng").
    /// Default ["en-US"]. A language that is not installed is an `unsupportedLanguage` error.
    public var recognitionLanguages: [String] = ["en-US"]
    /// Lines shorter than this fraction of the image height are dropped. Default 0 (keep all).
    public var minimumTextHeight: Float = 0
    /// Default `.fast`.
    public var recognitionLevel: RecognitionLevel = .fast
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Installed languages as Tesseract codes (e.g. "eng"); BCP-47 names map onto them.
    public static func supportedRecognitionLanguages() -> [String] {
        OCREnginePool.installedLanguages()
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
           let mapped = bcp47ToTesseract[String(base)] { return mapped }
        return language
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard !recognitionLanguages.isEmpty else {
            throw VisionError(.invalidArgument, "recognitionLanguages is empty")
        }
        guard (0...1).contains(minimumTextHeight) else {
            throw VisionError(.invalidArgument, "minimumTextHeight must be 0...1, not \(minimumTextHeight)")
        }
        let codes = recognitionLanguages.map(Self.tesseractCode(for:))
        for code in codes where code.isEmpty || code.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) {
            throw VisionError(.unsupportedLanguage, "'\(code)' is not a valid language code")
        }
        let image = try imageForRegionOfInterest(in: context)
        let minimumPixels = Int32((minimumTextHeight * Float(image.height)).rounded(.down))
        return try TesseractRecognizer.recognize(image, languages: codes, minimumTextHeightPixels: minimumPixels)
    }
}
