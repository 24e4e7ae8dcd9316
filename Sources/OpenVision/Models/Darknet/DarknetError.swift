import Foundation

/// An error from reading a Darknet model (`.cfg`, `.weights`, `.names`) or converting it to ONNX.
///
/// `description` is one line meant for people, and names the file and line when the problem is
/// in the `.cfg` (for example `yolov4-tiny.cfg:112: [route] is missing the key 'layers'`).
public struct DarknetError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// A file could not be read or written.
        case io
        /// The `.cfg` is not well formed (a line that is neither a section, a `key=value` nor a comment).
        case syntax
        /// A section lacks a key the converter needs.
        case missingKey
        /// A key has a value that is not a number, out of range, or inconsistent with the network.
        case invalidValue
        /// A layer type, activation or option the converter does not support.
        case unsupported
        /// The `.weights` file does not fit the `.cfg`.
        case weights
        /// The `.names` file does not fit the `.cfg`.
        case names
    }

    /// What kind of problem it is.
    public let kind: Kind
    /// A one-line explanation, without the file and line.
    public let message: String
    /// The file the problem is in, when it is about one file.
    public let file: String?
    /// The 1-based line in `file`, when the problem is on one line of a `.cfg`.
    public let line: Int?

    public init(_ kind: Kind, _ message: String, file: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        default: return message
        }
    }
}

extension DarknetError {
    /// An `.io` error for a file that could not be read.
    static func unreadable(_ url: URL, what: String, _ error: any Error) -> DarknetError {
        var isDirectory: ObjCBool = false
        let reason: String
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            reason = "no such file"
        } else if isDirectory.boolValue {
            reason = "it is a directory"
        } else {
            reason = error.localizedDescription
        }
        return DarknetError(.io, "cannot read the \(what): \(reason)", file: url.path)
    }
}
