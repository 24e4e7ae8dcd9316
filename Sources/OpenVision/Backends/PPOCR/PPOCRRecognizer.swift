internal import CNative
import Foundation
import Synchronization

/// `RecognizeTextRequest`'s `.accurate` backend: PP-OCRv4 (DB text detector, mobile 0°/180°
/// classifier, CRNN recogniser with CTC) with the model files of the PyPI wheel `rapidocr-onnxruntime` 1.4.4 that
/// scripts/setup installs. Each stage is a `VisionModel` (checked and run by its inference backend, like every
/// other model: ONNX Runtime or OpenVINO as `RuntimeChoice` picks, 2 intra-op threads each); `ov_ppocr.cpp` does
/// rapidocr's pre- and post-processing and calls back here for each model run. One engine per process, shared by every request.
final class PPOCRRecognizer: @unchecked Sendable {
    // The native handle is immutable after creation; ov_ppocr_recognize is thread-safe, and so are the models.
    private let handle: OpaquePointer
    /// Detector, angle classifier, recogniser: in the order of OV_PPOCR_DETECTOR, _CLASSIFIER, _RECOGNIZER.
    let stages: [VisionModel]

    /// The files scripts/setup installs (in a `ModelLocator` folder), with their role.
    static let detectorName = "ch_PP-OCRv4_det_infer.onnx"
    static let classifierName = "ch_ppocr_mobile_v2.0_cls_infer.onnx"
    static let recognizerName = "ch_PP-OCRv4_rec_infer.onnx"
    static let dictionaryName = "ch_PP-OCRv4_rec_infer.dict.txt"
    /// Intra-op threads per stage.
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
            guard
                let url = folders.lazy.map({ $0.appendingPathComponent(name) })
                    .first(where: { FileManager.default.fileExists(atPath: $0.path) })
            else {
                throw VisionError(
                    .missingModelData,
                    "the PP-OCR model file \(name) (for recognitionLevel .accurate) is not installed in "
                        + folders.map(\.path).joined(separator: ", ") + "; run ./scripts/setup")
            }
            urls.append(url)
        }
        return urls
    }

    /// Loads the engine from `files` (detector, classifier, recogniser, dictionary). Files the model checks or
    /// ONNX Runtime refuse, models with other than one input and one output, or a dictionary that does not fit the
    /// recogniser, are `invalidModel` naming ./scripts/setup; ONNX Runtime missing is `unsupported`.
    init(files urls: [URL]) throws(VisionError) {
        guard urls.count == 4 else { throw VisionError(.invalidArgument, "PP-OCR needs 4 files, not \(urls.count)") }
        // ONNX Runtime missing is `unsupported` (not OpenCV DNN); then `.automatic` runs each stage on ONNX Runtime or
        // OpenVINO, whichever ran it faster here (`RuntimeChoice`).
        try ONNXRuntimeBackend.load()
        var configuration = VisionModel.Configuration()
        configuration.threads = Self.threads
        var stages: [VisionModel] = []
        do throws(VisionError) {
            // `RuntimeChoice`'s warm-up sizes, as ov_ppocr.cpp feeds each stage (the first timed, all compared):
            // the detector at sides rounded to 32; the classifier 48 × 192 in batches of 1 to 6; the recogniser 48 rows
            // in batches of 1 to 6, each at least 320 wide and as wide as its widest line.
            let warmUp = [
                [[1, 3, 640, 640], [1, 3, 320, 480]],
                [[6, 3, 48, 192], [1, 3, 48, 192], [3, 3, 48, 192]],
                [[6, 3, 48, 320], [1, 3, 48, 320], [2, 3, 48, 640], [1, 3, 48, 1280], [6, 3, 48, 480]],
            ]
            for (url, shapes) in zip(urls.prefix(3), warmUp) {
                let loaded = RuntimeChoice.$warmUpShapes.withValue(shapes) {
                    Result { () throws(VisionError) -> VisionModel in
                        try VisionModel(contentsOf: url, configuration: configuration)
                    }
                }
                let model = try loaded.get()
                guard model.backend.inputs.count == 1, model.backend.outputs.count == 1 else {
                    throw VisionError(
                        .invalidModel, "PP-OCR: \(url.path) is not a PP-OCR model (expects one input and one output)")
                }
                stages.append(model)
            }
            let logits = stages[2].backend.outputs[0].shape
            guard logits.count == 3 else {
                throw VisionError(
                    .invalidModel, "PP-OCR: \(urls[2].path) is not a CTC recogniser ([N, T, classes] output)")
            }
            var out: OpaquePointer?
            try NativeError.check(ov_ppocr_create(urls[3].path, Int64(logits[2] ?? -1), &out), "PP-OCR models")
            guard let out else { throw VisionError(.internalError, "PP-OCR: no engine") }
            handle = out
        } catch  where error.code == .invalidModel || error.code == .ioError || error.code == .fileNotFound {
            var error = error
            error.code = .invalidModel
            error.message +=
                " (the PP-OCR files are damaged or do not belong together; run ./scripts/setup to reinstall them)"
            throw error
        }
        self.stages = stages
    }

    deinit { ov_ppocr_free(handle) }

    /// Lines of text in `image`, as observations normalised to `image` (lower-left origin). Lines
    /// whose text height is below `minimumTextHeightPixels` are dropped. With `detectsOrientation`, a page
    /// turned 90°, 180° or 270° is found by a vote of its lines and read upright (see ov_ppocr.cpp).
    func recognize(_ image: VisionImage, minimumTextHeightPixels: Float, detectsOrientation: Bool = false)
        throws(VisionError) -> [RecognizedTextObservation]
    {
        var params = ov_ppocr_default_params()
        params.min_text_height = minimumTextHeightPixels
        params.detect_orientation = detectsOrientation ? 1 : 0
        // Stops before its next model run when the request's task is cancelled (NativeCancellation).
        let cancellation = NativeCancellation.current
        params.cancel = cancellation?.handle
        // The models' runner, and the error one of them threw (rethrown as it was, not as a native status).
        let call = StageCall(stages: stages)
        params.run = Self.runStage
        params.run_context = Unmanaged.passUnretained(call).toOpaque()
        var result: OpaquePointer?
        defer { withExtendedLifetime(cancellation) {} }
        let status = withExtendedLifetime(call) { ov_ppocr_recognize(handle, image.handle, &params, &result) }
        if status != OV_OK, let error = call.error.withLock({ $0 }) { throw error }
        try NativeError.check(status, "accurate text recognition")
        defer { ov_ppocr_result_free(result) }
        return Self.observations(from: result!, map: PixelToNormalized(image))
    }

    /// One recognition's models and the first error they threw.
    private final class StageCall: Sendable {
        let stages: [VisionModel]
        let error = Mutex<VisionError?>(nil)
        init(stages: [VisionModel]) { self.stages = stages }
    }

    /// ov_ppocr_runner: runs stage `stage`'s model on the borrowed NCHW input and hands its first output back.
    private static let runStage: ov_ppocr_runner = { context, stage, input, shape, rank, output, message, messageSize in
        guard let context, let shape, stage >= 0, stage < 3 else { return OV_ERR_INVALID_ARGUMENT }
        let call = Unmanaged<StageCall>.fromOpaque(context).takeUnretainedValue()
        let dims = (0..<Int(rank)).map { Int(shape[$0]) }
        let count = dims.reduce(1, *)
        let backend = call.stages[Int(stage)].backend
        let tensor = Tensor(
            name: backend.inputs[0].name, shape: dims,
            scalars: input.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        do throws(VisionError) {
            let outputs = try backend.run([tensor])
            guard let first = outputs.first else {
                throw VisionError(
                    .invalidModel, "PP-OCR: \(call.stages[Int(stage)].url.lastPathComponent) gave no output")
            }
            let shape = first.shape.map(Int64.init)
            return first.scalars.withUnsafeBufferPointer { data in
                shape.withUnsafeBufferPointer {
                    ov_ppocr_output_set(output, data.baseAddress, $0.baseAddress, Int32($0.count))
                }
            }
        } catch {
            call.error.withLock { $0 = $0 ?? error }
            if let message, messageSize > 0 {
                let bytes = Array(error.message.utf8.prefix(messageSize - 1)) + [0]
                bytes.withUnsafeBufferPointer {
                    UnsafeMutableRawPointer(message).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                }
            }
            return error.code == .cancelled ? OV_ERR_CANCELLED : OV_ERR_INTERNAL
        }
    }

    private static func observations(from result: OpaquePointer, map: PixelToNormalized) -> [RecognizedTextObservation]
    {
        let orientation = ImageOrientation(turnedClockwise: Int(ov_ppocr_result_orientation(result)))
        let lineCount = Int(ov_ppocr_result_line_count(result))
        guard lineCount > 0, let lines = ov_ppocr_result_lines(result), let chars = ov_ppocr_result_chars(result),
            let textBase = ov_ppocr_result_text(result)
        else { return [] }
        func text(_ offset: Int32, _ length: Int32) -> String {
            let start = UnsafeRawPointer(textBase + Int(offset)).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: start, count: Int(length)), as: UTF8.self)
        }
        func corners(_ quad: (Float, Float, Float, Float, Float, Float, Float, Float)) -> [NormalizedPoint] {
            [
                map.point(quad.0, quad.1), map.point(quad.2, quad.3), map.point(quad.4, quad.5),
                map.point(quad.6, quad.7),
            ]
        }
        var observations: [RecognizedTextObservation] = []
        for l in 0..<lineCount {
            let line = lines[l]
            var string = ""
            var boxes: [NormalizedRect] = []
            var words: [RecognizedWord] = []
            var wordText = ""
            var wordBox: NormalizedRect?
            var wordConfidence: Float = 0
            var wordCount = 0
            func closeWord() {
                if let box = wordBox, !wordText.isEmpty {
                    words.append(
                        RecognizedWord(
                            string: wordText, confidence: wordConfidence / Float(wordCount), boundingBox: box))
                }
                wordText = ""
                wordBox = nil
                wordConfidence = 0
                wordCount = 0
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
            while string.first?.isWhitespace == true {
                string.removeFirst()
                boxes.removeFirst()
            }
            while string.last?.isWhitespace == true {
                string.removeLast()
                boxes.removeLast()
            }
            guard !string.isEmpty else { continue }
            let candidate = RecognizedText(
                string: string, confidence: line.confidence, characterBoxes: boxes, words: words)
            let q = corners(line.quad)
            var observation = RecognizedTextObservation(
                topLeft: q[0], topRight: q[1], bottomRight: q[2], bottomLeft: q[3],
                candidates: [candidate])
            observation.textOrientation = orientation
            observations.append(observation)
        }
        return observations
    }
}
