import Foundation
internal import CNative

/// Recognises lines of text, as Vision's `RecognizeTextRequest`, with Tesseract 5's LSTM engine.
public struct RecognizeTextRequest: CompletionHandlingRequest {
    public typealias Result = [RecognizedTextObservation]

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
        return try OCREnginePool.withEngine(languages: codes.joined(separator: "+")) { engine throws(VisionError) in
            var result: OpaquePointer?
            try NativeError.check(ov_ocr_recognize(engine.handle, image.handle, minimumPixels, &result), "text recognition")
            defer { ov_text_result_free(result) }
            return Self.observations(from: result!, map: PixelToNormalized(image))
        }
    }

    /// `count` equal slices of a word box, left to right: character boxes when the symbols do not line up.
    static func split(_ box: NormalizedRect, into count: Int) -> [NormalizedRect] {
        guard count > 0 else { return [] }
        let w = box.width / Double(count)
        return (0..<count).map { NormalizedRect(x: box.x + Double($0) * w, y: box.y, width: w, height: box.height) }
    }

    private static func observations(from result: OpaquePointer, map: PixelToNormalized) -> [RecognizedTextObservation] {
        let count = Int(ov_text_result_count(result))
        guard count > 0, let items = ov_text_result_items(result), let textBase = ov_text_result_text(result) else { return [] }
        func text(_ item: ov_text_item) -> String {
            let start = UnsafeRawPointer(textBase + Int(item.text_offset)).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: start, count: Int(item.text_length)), as: UTF8.self)
        }
        func rect(_ item: ov_text_item) -> NormalizedRect {
            map.rect(x: Double(item.x), y: Double(item.y), width: Double(item.width), height: Double(item.height))
        }
        var observations: [RecognizedTextObservation] = []
        var index = 0
        while index < count {
            let line = items[index]
            index += 1
            guard line.level == Int32(OV_TEXT_LINE.rawValue) else { continue }
            let lineIndex = Int32(index - 1)
            var string = ""
            var boxes: [NormalizedRect] = []
            var words: [RecognizedWord] = []
            var previousWord: NormalizedRect?
            while index < count, items[index].level == Int32(OV_TEXT_WORD.rawValue), items[index].parent == lineIndex {
                let word = items[index]
                let wordIndex = Int32(index)
                index += 1
                // Symbols give per-character boxes; the word's own text is authoritative (symbol
                // iteration can split or repeat a glyph), so symbol boxes are used only when they line up.
                var symbolText = ""
                var symbolBoxes: [NormalizedRect] = []
                while index < count, items[index].level == Int32(OV_TEXT_SYMBOL.rawValue), items[index].parent == wordIndex {
                    let symbol = items[index]
                    index += 1
                    let s = text(symbol)
                    symbolText += s
                    symbolBoxes += Array(repeating: rect(symbol), count: s.count)
                }
                let wordRect = rect(word)
                var wordText = text(word)
                if wordText.isEmpty { wordText = symbolText }
                let wordBoxes = symbolText == wordText ? symbolBoxes : Self.split(wordRect, into: wordText.count)
                guard !wordText.isEmpty else { continue }
                if let previous = previousWord {
                    string += " "
                    let gapX = previous.maxX, gapWidth = max(0, wordRect.minX - previous.maxX)
                    boxes.append(NormalizedRect(x: gapX, y: min(previous.minY, wordRect.minY), width: gapWidth,
                                                height: max(previous.maxY, wordRect.maxY) - min(previous.minY, wordRect.minY)))
                }
                string += wordText
                boxes += wordBoxes
                words.append(RecognizedWord(string: wordText, confidence: word.confidence, boundingBox: wordRect))
                previousWord = wordRect
            }
            guard !string.isEmpty else { continue }
            let candidate = RecognizedText(string: string, confidence: line.confidence, characterBoxes: boxes, words: words)
            observations.append(RecognizedTextObservation(boundingBox: rect(line), candidates: [candidate]))
        }
        return observations
    }
}
