internal import CNative

/// Turns native status codes into `VisionError`s: the one place C errors become Swift throws.
enum NativeError {
    /// Throws a `VisionError` for a non-OK status, with the native layer's thread-local message.
    static func check(_ status: ov_status, _ context: @autoclosure () -> String = "") throws(VisionError) {
        guard status != OV_OK else { return }
        throw error(for: status, context: context())
    }

    static func error(for status: ov_status, context: String = "") -> VisionError {
        let detail = String(cString: ov_last_error())
        let message = [context, detail].filter { !$0.isEmpty }.joined(separator: ": ")
        let code: VisionError.Code
        switch status {
        case OV_ERR_INVALID_ARGUMENT: code = .invalidArgument
        case OV_ERR_DECODE: code = .invalidImage
        case OV_ERR_IO: code = .ioError
        case OV_ERR_MODEL: code = .invalidModel
        case OV_ERR_UNSUPPORTED: code = .unsupported
        case OV_ERR_OUT_OF_MEMORY: code = .outOfMemory
        default: code = .internalError
        }
        return VisionError(code, message.isEmpty ? "native call failed" : message)
    }
}

/// A NUL-terminated C char array (imported into Swift as a tuple) as a String.
func stringFromCCharArray<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
