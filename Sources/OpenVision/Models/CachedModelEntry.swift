/// The record kept beside each converted model in the cache (`NAME.onnx` → `NAME.entry`): which model and converter
/// revision it was converted from, and the size and SHA-256 of the ONNX file, which `ConvertedModelCache` checks
/// before every use. Five lines of ASCII:
///
///     openvision-converted-model 1
///     source <64 hex digits: the model's content hash>
///     revision <the converter's revision>
///     size <the ONNX file's bytes>
///     sha256 <64 hex digits: the ONNX file's hash>
///
/// The reader is strict (`invalidModel` for anything else: another order, a missing or extra line, upper-case hex,
/// signs, leading zeros, more than `maximumBytes`), and what it reads `text` writes back unchanged. Fuzzed by
/// `scripts/fuzz cache-entry`.
struct CachedModelEntry: Sendable, Equatable {
    /// The model's content hash (lowercase hex SHA-256).
    var source: String
    /// The converter's revision.
    var revision: Int
    /// The ONNX file's size in bytes.
    var size: Int
    /// The ONNX file's SHA-256 (lowercase hex).
    var sha256: String

    /// The longest record read.
    static let maximumBytes = 512
    static let header = "openvision-converted-model 1"

    init(source: String, revision: Int, size: Int, sha256: String) {
        self.source = source
        self.revision = revision
        self.size = size
        self.sha256 = sha256
    }

    /// Reads a record; `invalidModel` naming the first line that is not as `text` writes it.
    init(bytes: some Collection<UInt8>) throws(VisionError) {
        guard bytes.count <= Self.maximumBytes else {
            throw VisionError(.invalidModel, "cache entry: \(bytes.count) bytes, more than \(Self.maximumBytes)")
        }
        guard bytes.allSatisfy({ $0 == 0x0A || (0x20..<0x7F).contains($0) }) else {
            throw VisionError(.invalidModel, "cache entry: not printable ASCII")
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 6, lines[5].isEmpty, lines[0] == Self.header else {
            throw VisionError(.invalidModel, "cache entry: not an openvision-converted-model 1 record of five lines")
        }
        func value(_ line: Int, _ key: String) throws(VisionError) -> Substring {
            let text = lines[line]
            guard text.hasPrefix(key + " ") else {
                throw VisionError(.invalidModel, "cache entry: line \(line + 1) is not '\(key) …'")
            }
            return text.dropFirst(key.count + 1)
        }
        func hash(_ line: Int, _ key: String) throws(VisionError) -> String {
            let text = try value(line, key)
            guard text.count == 64, text.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }) else {
                throw VisionError(
                    .invalidModel, "cache entry: line \(line + 1): '\(key)' is not 64 lowercase hex digits")
            }
            return String(text)
        }
        func count(_ line: Int, _ key: String) throws(VisionError) -> Int {
            let text = try value(line, key)
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ ("0"..."9").contains($0) }),
                text == "0" || !text.hasPrefix("0"), let number = Int(text)
            else {
                throw VisionError(.invalidModel, "cache entry: line \(line + 1): '\(key)' is not a decimal count")
            }
            return number
        }
        source = try hash(1, "source")
        revision = try count(2, "revision")
        size = try count(3, "size")
        sha256 = try hash(4, "sha256")
    }

    /// The record as written.
    var text: String {
        "\(Self.header)\nsource \(source)\nrevision \(revision)\nsize \(size)\nsha256 \(sha256)\n"
    }
}
