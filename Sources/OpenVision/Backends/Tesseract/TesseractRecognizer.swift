internal import CNative
import Foundation

/// `RecognizeTextRequest`'s backend: Tesseract 5's LSTM engine (`ov_text.cpp`), lines → words →
/// symbols turned into Vision's text observations with a box for every character.
enum TesseractRecognizer {
    /// Lines of text in `image`; `languages` are Tesseract codes ("eng"), lines shorter than
    /// `minimumTextHeightPixels` are dropped. With `detectsOrientation`, a page turned 90°, 180° or 270° is
    /// found and read upright (see ov_text.cpp); its lines carry the orientation and reading-order corners.
    static func recognize(
        _ image: VisionImage, languages: [String], minimumTextHeightPixels: Int32,
        detectsOrientation: Bool
    ) throws(VisionError) -> [RecognizedTextObservation] {
        try OCREnginePool.withEngine(languages: languages.joined(separator: "+")) { engine throws(VisionError) in
            var result: OpaquePointer?
            // Stops within a word when the request's task is cancelled (NativeCancellation).
            try NativeError.check(
                ov_ocr_recognize(
                    engine.handle, image.handle, minimumTextHeightPixels, detectsOrientation ? 1 : 0,
                    NativeCancellation.current?.handle, &result), "text recognition")
            defer { ov_text_result_free(result) }
            return observations(from: result!, map: PixelToNormalized(image))
        }
    }

    /// `count` equal slices of a word box in reading order (left to right for upright text; top to bottom for
    /// text turned 90° clockwise, …): character boxes when the symbols do not line up.
    static func split(_ box: NormalizedRect, into count: Int, turnedClockwise degrees: Int = 0) -> [NormalizedRect] {
        guard count > 0 else { return [] }
        let n = Double(count)
        return (0..<count).map { i in
            let k = Double(i)
            switch degrees {
            case 90:
                return NormalizedRect(
                    x: box.x, y: box.maxY - (k + 1) * box.height / n, width: box.width, height: box.height / n)
            case 180:
                return NormalizedRect(
                    x: box.maxX - (k + 1) * box.width / n, y: box.y, width: box.width / n, height: box.height)
            case 270:
                return NormalizedRect(x: box.x, y: box.y + k * box.height / n, width: box.width, height: box.height / n)
            default:
                return NormalizedRect(x: box.x + k * box.width / n, y: box.y, width: box.width / n, height: box.height)
            }
        }
    }

    /// The box of the space between two words of a line (`previous` read before `next`): the gap between them
    /// along the reading direction, across both words.
    static func gap(between previous: NormalizedRect, and next: NormalizedRect, turnedClockwise degrees: Int)
        -> NormalizedRect
    {
        let minX = min(previous.minX, next.minX)
        let maxX = max(previous.maxX, next.maxX)
        let minY = min(previous.minY, next.minY)
        let maxY = max(previous.maxY, next.maxY)
        switch degrees {
        case 90:
            return NormalizedRect(x: minX, y: next.maxY, width: maxX - minX, height: max(0, previous.minY - next.maxY))
        case 180:
            return NormalizedRect(x: next.maxX, y: minY, width: max(0, previous.minX - next.maxX), height: maxY - minY)
        case 270:
            return NormalizedRect(
                x: minX, y: previous.maxY, width: maxX - minX, height: max(0, next.minY - previous.maxY))
        default:
            return NormalizedRect(
                x: previous.maxX, y: minY, width: max(0, next.minX - previous.maxX), height: maxY - minY)
        }
    }

    private static func observations(from result: OpaquePointer, map: PixelToNormalized) -> [RecognizedTextObservation]
    {
        let count = Int(ov_text_result_count(result))
        let degrees = Int(ov_text_result_orientation(result))
        let orientation = ImageOrientation(turnedClockwise: degrees)
        guard count > 0, let items = ov_text_result_items(result), let textBase = ov_text_result_text(result) else {
            return []
        }
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
                while index < count, items[index].level == Int32(OV_TEXT_SYMBOL.rawValue),
                    items[index].parent == wordIndex
                {
                    let symbol = items[index]
                    index += 1
                    let s = text(symbol)
                    symbolText += s
                    symbolBoxes += Array(repeating: rect(symbol), count: s.count)
                }
                let wordRect = rect(word)
                var wordText = text(word)
                if wordText.isEmpty { wordText = symbolText }
                let wordBoxes =
                    symbolText == wordText
                    ? symbolBoxes : Self.split(wordRect, into: wordText.count, turnedClockwise: degrees)
                guard !wordText.isEmpty else { continue }
                if let previous = previousWord {
                    string += " "
                    boxes.append(Self.gap(between: previous, and: wordRect, turnedClockwise: degrees))
                }
                string += wordText
                boxes += wordBoxes
                words.append(RecognizedWord(string: wordText, confidence: word.confidence, boundingBox: wordRect))
                previousWord = wordRect
            }
            guard !string.isEmpty else { continue }
            let candidate = RecognizedText(
                string: string, confidence: line.confidence, characterBoxes: boxes, words: words)
            var observation = RecognizedTextObservation(boundingBox: rect(line), candidates: [candidate])
            if degrees != 0 {
                // The corners in reading order: topLeft is the text's top-left wherever the page's top is.
                let corners = observation.boundingBox.readingCorners(turnedClockwise: degrees)
                (observation.topLeft, observation.topRight, observation.bottomRight, observation.bottomLeft) = (
                    corners[0], corners[1], corners[2], corners[3]
                )
                observation.textOrientation = orientation
            }
            observations.append(observation)
        }
        return observations
    }
}
