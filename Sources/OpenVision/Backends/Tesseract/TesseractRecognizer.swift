import Foundation
internal import CNative

/// `RecognizeTextRequest`'s backend: Tesseract 5's LSTM engine (`ov_text.cpp`), lines → words →
/// symbols turned into Vision's text observations with a box for every character.
enum TesseractRecognizer {
    /// Lines of text in `image`; `languages` are Tesseract codes ("eng"), lines shorter than
    /// `minimumTextHeightPixels` are dropped.
    static func recognize(_ image: VisionImage, languages: [String], minimumTextHeightPixels: Int32) throws(VisionError) -> [RecognizedTextObservation] {
        try OCREnginePool.withEngine(languages: languages.joined(separator: "+")) { engine throws(VisionError) in
            var result: OpaquePointer?
            try NativeError.check(ov_ocr_recognize(engine.handle, image.handle, minimumTextHeightPixels, &result), "text recognition")
            defer { ov_text_result_free(result) }
            return observations(from: result!, map: PixelToNormalized(image))
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
