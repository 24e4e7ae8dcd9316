import Foundation
internal import OpenVisionConverters

/// Models converted to ONNX on first use: `VisionModel(contentsOf:)` converts a TFLite or Core ML model
/// once and keeps the result in `~/.cache/openvision/<format>` (or `$XDG_CACHE_HOME/openvision/<format>`),
/// named by the SHA-256 of the model's bytes (of every file, for folders such as `.mlpackage`) and the
/// converter's revision, so an edited or replaced model is converted again and an unchanged one is not.
/// Writes are atomic (a temporary file renamed into place), so processes sharing the cache never read a
/// partial file.
struct ConvertedModelCache: Sendable {
    /// The cache's folder name ("tflite", "coreml").
    let format: String
    /// What the files are called in messages ("TFLite model").
    let what: String
    /// The converter's revision (part of every cached name).
    let revision: Int
    /// Converts the model at the URL to serialized ONNX.
    let convert: @Sendable (URL) throws -> Data

    static let tflite = ConvertedModelCache(format: "tflite", what: "TFLite model", revision: TFLiteConverter.revision) { url in
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ConversionError(.io, "cannot read the TFLite model \(url.path): \(error.localizedDescription)")
        }
        return try TFLiteConverter.onnxData(bytes: [UInt8](bytes), name: url.deletingPathExtension().lastPathComponent)
    }

    static let coreML = ConvertedModelCache(format: "coreml", what: "Core ML model", revision: CoreMLConverter.revision) { url in
        try CoreMLConverter.conversion(contentsOf: url).onnx
    }

    /// The folder of converted models.
    var directory: URL {
        let base = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("openvision/\(format)")
    }

    /// The user's cache, then the temporary folder (for a read-only home).
    private var folders: [URL] {
        [directory, FileManager.default.temporaryDirectory.appendingPathComponent("openvision-\(format)")]
    }

    /// The ONNX file for the model at `url` (a file or a folder), converting it when it is not cached yet.
    /// Throws `invalidModel` for a model that does not convert (corrupt, or using what the converter lacks: the
    /// message names it), `unsupported` for a Core ML model type or layer that is not converted, `ioError`
    /// when it cannot be read.
    func onnxFile(for url: URL) throws(VisionError) -> URL {
        // Hashing an 18 MB model takes a noticeable fraction of a second: a model whose path, sizes,
        // modification times and inodes are unchanged since it was hashed is looked up by that stamp first.
        let stampKey = Self.stamp(url)
        let suffix = "-r\(revision).onnx"
        if let stampKey {
            for folder in folders {
                let keyFile = folder.appendingPathComponent("\(stampKey).key")
                if let name = try? String(contentsOf: keyFile, encoding: .utf8), !name.contains("/"), name.hasSuffix(suffix) {
                    let cached = folder.appendingPathComponent(name)
                    if FileManager.default.fileExists(atPath: cached.path) { return cached }
                }
            }
        }
        let key: String
        do {
            key = try Self.contentHash(url)
        } catch {
            throw VisionError(.ioError, "cannot read the \(what) \(url.path): \(error.localizedDescription)")
        }
        let name = "\(url.deletingPathExtension().lastPathComponent)-\(key.prefix(32))\(suffix)"
        for folder in folders {
            let cached = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: cached.path) {
                if let stampKey { try? Data(name.utf8).write(to: folder.appendingPathComponent("\(stampKey).key"), options: .atomic) }
                return cached
            }
        }
        let onnx: Data
        do {
            onnx = try convert(url)
        } catch let error as ConversionError {
            // A model we cannot convert is unusable here: invalidModel (unsupported for a Core ML layer or model
            // type that is not converted), ioError when unreadable.
            let code: VisionError.Code = error.code == .io ? .ioError : error.code == .unsupported && format == "coreml" ? .unsupported : .invalidModel
            let text = error.file == nil || error.file == url.path ? error.message : error.description
            let joined = text.hasPrefix("is ") || text.hasPrefix("has ") ? " \(text)" : ": \(text)"
            throw VisionError(code, url.lastPathComponent + joined, cause: error)
        } catch {
            throw VisionError(.internalError, "converting \(url.lastPathComponent): \(error)")
        }
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

    /// The regular files of `url` (itself, or every file under a folder, by relative path in sorted order).
    static func files(_ url: URL) -> [(relative: String, url: URL)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [("", url)]
        }
        let base = url.standardizedFileURL.path
        var result: [(String, URL)] = []
        if let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let file as URL in walker {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                var relative = file.standardizedFileURL.path
                if relative.hasPrefix(base) { relative.removeFirst(base.count) }
                result.append((relative, file))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// The SHA-256 of a file's bytes, or for a folder of its files' relative paths and digests.
    static func contentHash(_ url: URL) throws -> String {
        let files = files(url)
        if files.count == 1, files[0].relative.isEmpty {
            return SHA256.hex(try Data(contentsOf: url, options: .mappedIfSafe))
        }
        var listing: [UInt8] = []
        for (relative, file) in files {
            listing += Array(relative.utf8) + [0]
            listing += SHA256.digest(try Data(contentsOf: file, options: .mappedIfSafe))
        }
        return SHA256.hex(listing)
    }

    /// A key for the model as it is now on disk: its absolute path and each file's size, modification time and inode.
    static func stamp(_ url: URL) -> String? {
        var text = url.standardizedFileURL.path
        for (relative, file) in files(url) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                  let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
            let inode = (attributes[.systemFileNumber] as? Int) ?? 0
            text += "\u{0}\(relative)\u{0}\(size)\u{0}\(modified.timeIntervalSince1970)\u{0}\(inode)"
        }
        return "stamp-" + SHA256.hex(Array(text.utf8)).prefix(32)
    }
}
