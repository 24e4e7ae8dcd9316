internal import CNative

/// Turns native status codes into `VisionError`s: the one place C errors become Swift throws.
enum NativeError {
    /// Throws a `VisionError` for a non-OK status, with the native layer's thread-local message;
    /// `codes` gives request-specific codes for some statuses (e.g. Tesseract's
    /// `OV_ERR_UNSUPPORTED` is `unsupportedLanguage`).
    static func check(
        _ status: ov_status, _ context: @autoclosure () -> String = "",
        codes: [ov_status: VisionError.Code] = [:]
    ) throws(VisionError) {
        guard status != OV_OK else { return }
        throw error(for: status, context: context(), codes: codes)
    }

    static func error(for status: ov_status, context: String = "", codes: [ov_status: VisionError.Code] = [:])
        -> VisionError
    {
        let detail = String(cString: ov_last_error())
        let message = [context, detail].filter { !$0.isEmpty }.joined(separator: ": ")
        return VisionError(codes[status] ?? defaultCode(for: status), message.isEmpty ? "native call failed" : message)
    }

    private static func defaultCode(for status: ov_status) -> VisionError.Code {
        switch status {
        case OV_ERR_INVALID_ARGUMENT: .invalidArgument
        case OV_ERR_DECODE: .invalidImage
        case OV_ERR_IO: .ioError
        case OV_ERR_MODEL: .invalidModel
        case OV_ERR_UNSUPPORTED: .unsupported
        case OV_ERR_OUT_OF_MEMORY: .outOfMemory
        case OV_ERR_CANCELLED: .cancelled
        default: .internalError
        }
    }
}

/// A NUL-terminated C char array (imported into Swift as a tuple) as a String.
func stringFromCCharArray<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
