import Foundation

/// The one error type OpenVision throws: a growable `code`, a human-readable message, and
/// the underlying cause when there is one.
public struct VisionError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong, as a value that can grow new cases without breaking callers' `switch`es.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The value as short text, for logs and command-line output.
        public var description: String { name }

        /// The file or device does not exist.
        public static let fileNotFound = Code("fileNotFound")
        /// Reading or writing a file failed.
        public static let ioError = Code("ioError")
        /// The bytes are not a decodable image (corrupt, truncated, empty, or random data).
        public static let invalidImage = Code("invalidImage")
        /// The bytes are an image in a format this build cannot decode.
        public static let unsupportedImageFormat = Code("unsupportedImageFormat")
        /// The image declares more pixels than the handler's limit allows.
        public static let imageTooLarge = Code("imageTooLarge")
        /// A request option or argument is out of range (e.g. a region of interest outside 0...1).
        public static let invalidArgument = Code("invalidArgument")
        /// A recognition language is not installed.
        public static let unsupportedLanguage = Code("unsupportedLanguage")
        /// A model or data file a request needs is missing.
        public static let missingModelData = Code("missingModelData")
        /// A model or data file exists but cannot be loaded.
        public static let invalidModel = Code("invalidModel")
        /// The native layer ran out of memory.
        public static let outOfMemory = Code("outOfMemory")
        /// A feature is not available in this build or on this machine.
        public static let unsupported = Code("unsupported")
        /// The operation was cancelled.
        public static let cancelled = Code("cancelled")
        /// An unexpected internal failure; the message says where.
        public static let internalError = Code("internalError")
        /// An app's custom layer (`CustomLayer`, Core ML's `MLCustomLayer`) threw or broke its contract (output
        /// shapes that do not fit); the message names the layer and its class, the cause is what it threw.
        public static let customLayer = Code("customLayer")
    }

    /// What went wrong.
    public var code: Code
    /// A one-line explanation for people.
    public var message: String
    /// The error that caused this one, if any.
    public var cause: (any Error & Sendable)?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        if let cause { return "\(code): \(message) (cause: \(cause))" }
        return "\(code): \(message)"
    }

    /// The message, for `LocalizedError`.
    public var errorDescription: String? { message }
}

extension VisionError {
    /// The same error with `path` (the file it concerns) in front of its message.
    func attributed(to path: String) -> VisionError {
        VisionError(code, "\(path): \(message)", cause: cause)
    }
}
