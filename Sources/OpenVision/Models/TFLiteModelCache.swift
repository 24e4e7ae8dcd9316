import Foundation
internal import OpenVisionConverters

/// Converted `.tflite` models: `VisionModel(contentsOf:)` converts a TFLite file to ONNX once and
/// keeps the result in `~/.cache/openvision/tflite` (or `$XDG_CACHE_HOME/openvision/tflite`),
/// named by the SHA-256 of the file's bytes and the converter's revision, so an edited or replaced
/// file is converted again and an unchanged one is not. Writes are atomic (a temporary file
/// renamed into place), so processes sharing the cache never read a partial file.
enum TFLiteModelCache {
    /// The folder of converted models.
    static var directory: URL {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("openvision/tflite")
    }

    /// The ONNX file for the `.tflite` file at `url`, converting it when it is not cached yet.
    /// Throws `invalidModel` for a file that is not a TFLite model, is corrupt, or uses an
    /// operation the converter does not support (the message names it and its index), `ioError`
    /// when it cannot be read.
    static func onnxFile(for url: URL) throws(VisionError) -> URL {
        // Hashing a 6 MB model takes ~0.1 s (2 s in a debug build): a file whose path, size, modification
        // time and inode are unchanged since it was hashed is looked up by that stamp first.
        let stampKey = stamp(url)
        if let stampKey {
            for folder in folders {
                let keyFile = folder.appendingPathComponent("\(stampKey).key")
                if let name = try? String(contentsOf: keyFile, encoding: .utf8),
                   !name.contains("/"), name.hasSuffix("-r\(TFLiteConverter.revision).onnx") {
                    let cached = folder.appendingPathComponent(name)
                    if FileManager.default.fileExists(atPath: cached.path) { return cached }
                }
            }
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw VisionError(.ioError, "cannot read the TFLite model \(url.path): \(error.localizedDescription)")
        }
        let key = SHA256.hex(bytes)
        let name = "\(url.deletingPathExtension().lastPathComponent)-\(key.prefix(32))-r\(TFLiteConverter.revision).onnx"
        for folder in folders {
            let cached = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: cached.path) {
                if let stampKey { try? Data(name.utf8).write(to: folder.appendingPathComponent("\(stampKey).key"), options: .atomic) }
                return cached
            }
        }
        let onnx: Data
        do {
            onnx = try TFLiteConverter.onnxData(bytes: [UInt8](bytes), name: url.deletingPathExtension().lastPathComponent)
        } catch let error as ConversionError {
            // An operation we cannot convert makes the file unusable here: invalidModel, as for corrupt files.
            let code: VisionError.Code = error.code == .io ? .ioError : .invalidModel
            let text = error.description
            let joined = text.hasPrefix("is ") || text.hasPrefix("has ") ? " \(text)" : ": \(text)"
            throw VisionError(code, url.lastPathComponent + joined, cause: error)
        } catch {
            throw VisionError(.internalError, "converting \(url.lastPathComponent): \(error)")
        }
        // The user's cache, else the temporary folder (a read-only home).
        var lastError: (any Error)?
        for folder in folders {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let target = folder.appendingPathComponent(name)
                try onnx.write(to: target, options: .atomic)
                if let stampKey { try? Data(name.utf8).write(to: folder.appendingPathComponent("\(stampKey).key"), options: .atomic) }
                return target
            } catch {
                lastError = error
            }
        }
        throw VisionError(.ioError, "cannot write the converted model of \(url.lastPathComponent) to \(directory.path): "
                          + "\(lastError.map { "\($0.localizedDescription)" } ?? "unknown error")")
    }

    /// The user's cache, then the temporary folder (for a read-only home).
    private static var folders: [URL] {
        [directory, FileManager.default.temporaryDirectory.appendingPathComponent("openvision-tflite")]
    }

    /// A key for the file as it is now on disk: its absolute path, size, modification time and inode.
    private static func stamp(_ url: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.standardizedFileURL.path),
              let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
        let inode = (attributes[.systemFileNumber] as? Int) ?? 0
        let text = "\(url.standardizedFileURL.path)\u{0}\(size)\u{0}\(modified.timeIntervalSince1970)\u{0}\(inode)"
        return "stamp-" + SHA256.hex(Array(text.utf8)).prefix(32)
    }
}
