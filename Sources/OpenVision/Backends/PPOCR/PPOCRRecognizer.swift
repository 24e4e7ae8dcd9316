import Foundation
import Synchronization
internal import CNative

/// `RecognizeTextRequest`'s `.accurate` backend: PP-OCRv4 (DB text detector, mobile 0°/180°
/// classifier, CRNN recogniser with CTC) on ONNX Runtime through `ov_ppocr.cpp`, with the model
/// files of the PyPI wheel `rapidocr-onnxruntime` 1.4.4 that scripts/setup installs.
/// One engine per process (sessions loaded once, 2 intra-op threads each), shared by every request.
final class PPOCRRecognizer: @unchecked Sendable {
    // The native handle is immutable after creation; ov_ppocr_recognize is thread-safe.
    private let handle: OpaquePointer

    /// The files scripts/setup installs (in a `ModelLocator` folder), with their role.
    static let detectorName = "ch_PP-OCRv4_det_infer.onnx"
    static let classifierName = "ch_ppocr_mobile_v2.0_cls_infer.onnx"
    static let recognizerName = "ch_PP-OCRv4_rec_infer.onnx"
    static let dictionaryName = "ch_PP-OCRv4_rec_infer.dict.txt"
    /// Intra-op threads per session.
    static let threads = 2

    private static let cache = Mutex<PPOCRRecognizer?>(nil)

    /// The shared engine, loaded on first use. Missing files are `missingModelData`, unreadable or
    /// mismatched ones `invalidModel`; both name `./scripts/setup` as the fix. A failure is not
    /// cached: the next call tries again.
    static func shared() throws(VisionError) -> PPOCRRecognizer {
        try cache.withLock { cached throws(VisionError) -> PPOCRRecognizer in
            if let cached { return cached }
            let engine = try PPOCRRecognizer(files: files(in: ModelLocator.searchPaths))
            cached = engine
            return engine
        }
    }

    /// The detector, classifier, recogniser and dictionary files, each from the first of `folders` that
    /// has it; `missingModelData` naming ./scripts/setup when one is nowhere.
    static func files(in folders: [URL]) throws(VisionError) -> [URL] {
        var urls: [URL] = []
        for name in [detectorName, classifierName, recognizerName, dictionaryName] {
            guard let url = folders.lazy.map({ $0.appendingPathComponent(name) })
                .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw VisionError(.missingModelData, "the PP-OCR model file \(name) (for recognitionLevel .accurate) is not installed in "
                    + folders.map(\.path).joined(separator: ", ") + "; run ./scripts/setup")
            }
            urls.append(url)
        }
        return urls
    }

    /// Loads the engine from `files` (detector, classifier, recogniser, dictionary). Files ONNX Runtime
    /// cannot read, or a dictionary that does not fit the recogniser, are `invalidModel` naming ./scripts/setup.
    init(files urls: [URL]) throws(VisionError) {
        guard urls.count == 4 else { throw VisionError(.invalidArgument, "PP-OCR needs 4 files, not \(urls.count)") }
        try ONNXRuntimeBackend.load()
        var out: OpaquePointer?
        let status = ov_ppocr_create(urls[0].path, urls[1].path, urls[2].path, urls[3].path, Int32(Self.threads), &out)
        guard status == OV_OK, let out else {
            var error = NativeError.error(for: status, context: "PP-OCR models")
            if status == OV_ERR_MODEL || status == OV_ERR_IO {
                error.code = .invalidModel
                error.message += " (the PP-OCR files are damaged or do not belong together; run ./scripts/setup to reinstall them)"
            }
            throw error
        }
        handle = out
    }

    deinit { ov_ppocr_free(handle) }

    /// Lines of text in `image`, as observations normalised to `image` (lower-left origin). Lines
    /// whose text height is below `minimumTextHeightPixels` are dropped. With `detectsOrientation`, a page
    /// turned 90°, 180° or 270° is found by a vote of its lines and read upright (see ov_ppocr.cpp).
    func recognize(_ image: VisionImage, minimumTextHeightPixels: Float, detectsOrientation: Bool = false) throws(VisionError) -> [RecognizedTextObservation] {
        var params = ov_ppocr_default_params()
        params.min_text_height = minimumTextHeightPixels
        params.detect_orientation = detectsOrientation ? 1 : 0
        // Stops before its next model run when the request's task is cancelled (NativeCancellation).
        let cancellation = NativeCancellation.current
        params.cancel = cancellation?.handle
        var result: OpaquePointer?
        defer { withExtendedLifetime(cancellation) {} }
        try NativeError.check(ov_ppocr_recognize(handle, image.handle, &params, &result), "accurate text recognition")
        defer { ov_ppocr_result_free(result) }
        return Self.observations(from: result!, map: PixelToNormalized(image))
    }

    private static func observations(from result: OpaquePointer, map: PixelToNormalized) -> [RecognizedTextObservation] {
        let orientation = ImageOrientation(turnedClockwise: Int(ov_ppocr_result_orientation(result)))
        let lineCount = Int(ov_ppocr_result_line_count(result))
        guard lineCount > 0, let lines = ov_ppocr_result_lines(result), let chars = ov_ppocr_result_chars(result),
              let textBase = ov_ppocr_result_text(result) else { return [] }
        func text(_ offset: Int32, _ length: Int32) -> String {
            let start = UnsafeRawPointer(textBase + Int(offset)).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: start, count: Int(length)), as: UTF8.self)
        }
        func corners(_ quad: (Float, Float, Float, Float, Float, Float, Float, Float)) -> [NormalizedPoint] {
            [map.point(quad.0, quad.1), map.point(quad.2, quad.3), map.point(quad.4, quad.5), map.point(quad.6, quad.7)]
        }
        var observations: [RecognizedTextObservation] = []
        for l in 0..<lineCount {
            let line = lines[l]
            var string = ""
            var boxes: [NormalizedRect] = []
            var words: [RecognizedWord] = []
            var wordText = "", wordBox: NormalizedRect?, wordConfidence: Float = 0, wordCount = 0
            func closeWord() {
                if let box = wordBox, !wordText.isEmpty {
                    words.append(RecognizedWord(string: wordText, confidence: wordConfidence / Float(wordCount), boundingBox: box))
                }
                wordText = ""; wordBox = nil; wordConfidence = 0; wordCount = 0
            }
            for c in Int(line.char_start)..<Int(line.char_start + line.char_count) {
                let char = chars[c]
                let s = text(char.text_offset, char.text_length)
                let box = NormalizedRect(boundingPoints: corners(char.quad))
                guard !s.isEmpty else { continue }
                string += s
                // A dictionary entry is one Character (rarely more): one box per Character; a combining
                // mark that merges into the previous Character adds none.
                boxes += Array(repeating: box, count: max(0, string.count - boxes.count))
                if s.allSatisfy(\.isWhitespace) {
                    closeWord()
                } else {
                    wordText += s
                    wordBox = wordBox.map { $0.union(box) } ?? box
                    wordConfidence += char.confidence
                    wordCount += 1
                }
            }
            closeWord()
            // Leading/trailing spaces the recogniser emitted are dropped with their boxes.
            while string.first?.isWhitespace == true { string.removeFirst(); boxes.removeFirst() }
            while string.last?.isWhitespace == true { string.removeLast(); boxes.removeLast() }
            guard !string.isEmpty else { continue }
            let candidate = RecognizedText(string: string, confidence: line.confidence, characterBoxes: boxes, words: words)
            let q = corners(line.quad)
            var observation = RecognizedTextObservation(topLeft: q[0], topRight: q[1], bottomRight: q[2], bottomLeft: q[3],
                                                        candidates: [candidate])
            observation.textOrientation = orientation
            observations.append(observation)
        }
        return observations
    }
}
