import Foundation

/// An error from reading or converting a model file: a Darknet `.cfg`, `.weights` or `.names`,
/// or an ONNX file.
///
/// `description` is one line meant for people, and names the file and line when the problem is
/// in a `.cfg` (for example `yolov4-tiny.cfg:112: [route] is missing the key 'layers'`).
/// OpenVision turns it into a `VisionError` (`invalidModel`, `ioError`, `unsupported`) where it
/// loads models.
public struct ConversionError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is: a value that can grow new cases without breaking callers' `switch`es.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The value as short text, for logs and command-line output.
        public var description: String { name }

        /// A file could not be read or written.
        public static let io = Code("io")
        /// The file is not well formed (a `.cfg` line that is neither a section, a `key=value` nor
        /// a comment; malformed protobuf).
        public static let syntax = Code("syntax")
        /// A section lacks a key the converter needs.
        public static let missingKey = Code("missingKey")
        /// A key has a value that is not a number or is inconsistent with the network.
        public static let invalidValue = Code("invalidValue")
        /// A value or a size derived from the values is beyond the converters' limits
        /// (`DarknetLimits`), or its arithmetic overflows.
        public static let limitExceeded = Code("limitExceeded")
        /// A layer type, activation or option the converter does not support.
        public static let unsupported = Code("unsupported")
        /// The `.weights` file does not fit the `.cfg`.
        public static let weights = Code("weights")
        /// The `.names` file does not fit the `.cfg`.
        public static let names = Code("names")
    }

    /// What kind of problem it is.
    public let code: Code
    /// A one-line explanation, without the file and line.
    public let message: String
    /// The file the problem is in, when it is about one file.
    public let file: String?
    /// The 1-based line in `file`, when the problem is on one line of a `.cfg`.
    public let line: Int?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        switch (file, line) {
        case (let file?, let line?): return "\(file):\(line): \(message)"
        case (let file?, nil): return "\(file): \(message)"
        default: return message
        }
    }
}

extension ConversionError {
    /// An `.io` error for a file that could not be read.
    static func unreadable(_ url: URL, what: String, _ error: any Error) -> ConversionError {
        var isDirectory: ObjCBool = false
        let reason: String
        if let posix = (error as? CocoaError)?.underlying as? POSIXError {
            // What the system said: "Too many levels of symbolic links", "Permission denied", …
            reason = String(cString: strerror(posix.code.rawValue))
        } else if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            reason = "it is a directory"
        } else if !FileManager.default.fileExists(atPath: url.path) {
            reason = "no such file"
        } else {
            reason = error.localizedDescription
        }
        return ConversionError(.io, "cannot read the \(what): \(reason)", file: url.path)
    }
}
