internal import CNative
import Foundation
import Synchronization

/// One Tesseract engine for one language set. Not thread-safe: used by one task at a time via
/// `OCREnginePool`.
final class OCREngine: @unchecked Sendable {
    let handle: OpaquePointer
    init(handle: OpaquePointer) { self.handle = handle }
    deinit { ov_ocr_free(handle) }
}

/// Keeps idle Tesseract engines per language set so each recognition reuses a loaded model
/// (loading takes ~100 ms) and concurrent recognitions each get their own engine.
enum OCREnginePool {
    private static let idle = Mutex<[String: [OCREngine]]>([:])

    /// The tessdata folder: `TESSDATA_PREFIX` if set, else Tesseract's compiled-in default.
    static var dataPath: String? { ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] }

    private static let configureOnce: Void = {
        // Tesseract parallelises with OpenMP; several engines at once oversubscribe the CPU.
        setenv("OMP_THREAD_LIMIT", "1", 0)
    }()

    /// Runs `body` with an engine for `languages` ("eng+deu"), creating one when none is idle.
    static func withEngine<R>(languages: String, _ body: (OCREngine) throws(VisionError) -> R) throws(VisionError) -> R
    {
        _ = configureOnce
        let engine: OCREngine
        if let reused = idle.withLock({ $0[languages]?.popLast() }) {
            engine = reused
        } else {
            var handle: OpaquePointer?
            let status = ov_ocr_create(dataPath, languages, &handle)
            try NativeError.check(status, codes: [OV_ERR_UNSUPPORTED: .unsupportedLanguage])
            engine = OCREngine(handle: handle!)
        }
        defer {
            idle.withLock { pool in
                if pool[languages, default: []].count < ProcessInfo.processInfo.activeProcessorCount {
                    pool[languages, default: []].append(engine)
                }
            }
        }
        return try body(engine)
    }

    /// Tesseract language codes installed (e.g. ["eng"]).
    static func installedLanguages() -> [String] {
        var out: UnsafeMutablePointer<CChar>?
        guard ov_ocr_available_languages(dataPath, &out) == OV_OK, let out else { return [] }
        defer { ov_free(out) }
        return String(cString: out).split(separator: "+").map(String.init)
    }
}
