import Foundation
internal import OpenVisionConverters

/// Models converted to ONNX on first use: `VisionModel(contentsOf:)` converts a TFLite or Core ML model
/// once and keeps the result in the user's cache, named by the SHA-256 of the model's bytes (of every file, for
/// folders such as `.mlpackage`) and the converter's revision, so an edited or replaced model is converted again and
/// an unchanged one is not.
///
/// The cache cannot be poisoned by another user or by a damaged file:
/// - its folders are private: `$XDG_CACHE_HOME/openvision/<format>` when that variable is an absolute path (the XDG
///   base directory specification ignores an empty or relative one), else `~/.cache/openvision/<format>`; when that
///   is not usable (a read-only home), `$TMPDIR/openvision-<uid>/<format>`, and failing that a new folder for this
///   process. Each is created with mode 0700, or used only if it is a real folder (not a link) owned by the user,
///   and then made 0700. Shared folders (the old `$TMPDIR/openvision-coreml`) are never read.
/// - each `NAME.onnx` has a `NAME.entry` beside it (`CachedModelEntry`: the model's hash, the converter's revision,
///   the ONNX file's size and SHA-256), checked before every use; an entry that does not match (truncated, garbage,
///   empty, a folder, another revision) is converted again and replaced.
/// - names are `<stem, at most 64 bytes of [A-Za-z0-9._-]>-<hash prefix>-r<revision>.onnx`: a long file name does
///   not make a name past NAME_MAX.
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
    /// Tests: the cache home instead of the environment's, and the folder instead of the temporary directory.
    var home: URL?
    var temporary: URL?

    init(
        format: String, what: String, revision: Int, home: URL? = nil, temporary: URL? = nil,
        convert: @escaping @Sendable (URL) throws -> Data
    ) {
        self.format = format
        self.what = what
        self.revision = revision
        self.home = home
        self.temporary = temporary
        self.convert = convert
    }

    static let tflite = ConvertedModelCache(format: "tflite", what: "TFLite model", revision: TFLiteConverter.revision)
    { url in
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ConversionError(.io, "cannot read the TFLite model \(url.path): \(error.localizedDescription)")
        }
        return try TFLiteConverter.onnxData(bytes: [UInt8](bytes), name: url.deletingPathExtension().lastPathComponent)
    }

    static let coreML = ConvertedModelCache(format: "coreml", what: "Core ML model", revision: CoreMLConverter.revision)
    { url in
        // Custom layers take their output shapes from the app's registered classes.
        try CoreMLCustomLayer.$shapes.withValue(CustomLayerRegistry.shapes) {
            try CoreMLConverter.conversion(contentsOf: url).onnx
        }
    }

    /// The user's cache folder for this format (see the type's description; not created here).
    var directory: URL { (home ?? Self.cacheHome()).appendingPathComponent("openvision/\(format)") }

    /// `$XDG_CACHE_HOME` when it is an absolute path, else `$HOME/.cache`.
    static func cacheHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg) }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
    }

    /// The folders entries are read from and written to, in order, each private (`PrivateFolder`): the user's cache,
    /// else the per-user temporary one, else one made for this process.
    func folders() -> [URL] { Self.folders(format, directory: directory, temporary: temporary) }

    /// The private folders for the cache `format` (see `folders()`): `directory` (the user's cache for it), else
    /// `$TMPDIR/openvision-<uid>/<format>` (`temporary` instead of the temporary directory), else one for this process.
    /// Also where `RuntimeChoice` keeps its choices (format "runtime").
    static func folders(_ format: String, directory: URL, temporary: URL?) -> [URL] {
        var result: [URL] = []
        if PrivateFolder.prepare(directory, creatingParents: true) { result.append(directory) }
        let shared = (temporary ?? FileManager.default.temporaryDirectory).appendingPathComponent(
            "openvision-\(getuid())")
        if PrivateFolder.prepare(shared, creatingParents: false),
            PrivateFolder.prepare(shared.appendingPathComponent(format), creatingParents: false)
        {
            result.append(shared.appendingPathComponent(format))
        }
        if result.isEmpty, let own = PrivateFolder.processFolder,
            PrivateFolder.prepare(own.appendingPathComponent(format), creatingParents: false)
        {
            result.append(own.appendingPathComponent(format))
        }
        return result
    }

    /// The ONNX file for the model at `url` (a file or a folder), converting it when it is not cached yet or its
    /// cached entry does not check out. Throws `invalidModel` for a model that does not convert (corrupt, or using
    /// what the converter lacks: the message names it), `unsupported` for a Core ML model type or layer that is not
    /// converted, `ioError` when it cannot be read or no private cache folder can be made. `refresh` converts it again
    /// and replaces the cached file (a Core ML graph whose custom layers' registered classes now give other shapes).
    func onnxFile(for url: URL, refresh: Bool = false) throws(VisionError) -> URL {
        let folders = folders()
        guard !folders.isEmpty else {
            throw VisionError(
                .ioError,
                "cannot keep the converted model of \(url.lastPathComponent): no private cache "
                    + "folder (\(directory.path) and the temporary folder are not usable)")
        }
        // Hashing an 18 MB model takes a noticeable fraction of a second: a model whose path, sizes,
        // modification times and inodes are unchanged since it was hashed is looked up by that stamp first.
        let stampKey = Self.stamp(url)
        if let stampKey, !refresh {
            for folder in folders {
                let keyFile = Self.file("\(stampKey).key", in: folder)
                if let bytes = PrivateFolder.read(keyFile, limit: 512),
                    let name = String(bytes: bytes, encoding: .utf8),
                    Self.isEntryName(name, revision: revision),
                    let cached = verified(Self.file(name, in: folder), source: nil)
                {
                    return cached
                }
            }
        }
        let key: String
        do {
            key = try Self.contentHash(url)
        } catch {
            throw VisionError(.ioError, "cannot read the \(what) \(url.path): \(error.localizedDescription)")
        }
        let name = Self.entryName(url, key: key, revision: revision)
        for folder in folders where !refresh {
            if let cached = verified(Self.file(name, in: folder), source: key) {
                if let stampKey { PrivateFolder.write(Data(name.utf8), to: Self.file("\(stampKey).key", in: folder)) }
                return cached
            }
        }
        let onnx: Data
        do {
            onnx = try convert(url)
        } catch let error as ConversionError {
            // A model we cannot convert is unusable here: invalidModel (unsupported for a Core ML layer or model
            // type that is not converted), ioError when unreadable.
            let code: VisionError.Code =
                error.code == .io
                ? .ioError : error.code == .unsupported && format == "coreml" ? .unsupported : .invalidModel
            let text = error.file == nil || error.file == url.path ? error.message : error.description
            let joined = text.hasPrefix("is ") || text.hasPrefix("has ") ? " \(text)" : ": \(text)"
            throw VisionError(code, url.lastPathComponent + joined, cause: error)
        } catch let error as VisionError {
            // A custom layer's class refused (not registered, or it threw): its own error.
            throw VisionError(error.code, "\(url.lastPathComponent): \(error.message)", cause: error.cause)
        } catch {
            throw VisionError(.internalError, "converting \(url.lastPathComponent): \(error)")
        }
        let entry = CachedModelEntry(source: key, revision: revision, size: onnx.count, sha256: SHA256.hex(onnx))
        for folder in folders {
            let target = Self.file(name, in: folder)
            if PrivateFolder.write(onnx, to: target),
                PrivateFolder.write(Data(entry.text.utf8), to: Self.entryURL(target))
            {
                if let stampKey { PrivateFolder.write(Data(name.utf8), to: Self.file("\(stampKey).key", in: folder)) }
                return target
            }
        }
        throw VisionError(
            .ioError,
            "cannot write the converted model of \(url.lastPathComponent) to "
                + folders.map(\.path).joined(separator: " or "))
    }

    /// `onnx` when it is a regular file of this user whose entry (`NAME.entry`) reads, is of this revision (and of
    /// the model `source`, when known), and gives the file's size and SHA-256; else nil.
    func verified(_ onnx: URL, source: String?) -> URL? {
        guard let size = PrivateFolder.ownedFileSize(onnx),
            let bytes = PrivateFolder.read(Self.entryURL(onnx), limit: 4096),
            let entry = try? CachedModelEntry(bytes: bytes), entry.revision == revision, entry.size == size,
            source.map({ entry.source == $0 }) ?? onnx.lastPathComponent.contains("-\(entry.source.prefix(32))-r"),
            let data = try? Data(contentsOf: onnx, options: .mappedIfSafe), data.count == size,
            SHA256.hex(data) == entry.sha256
        else { return nil }
        return onnx
    }

    /// The file `name` in `folder`, whatever is there now (a folder in its place must not give its URL a trailing
    /// slash: it is replaced by the file).
    static func file(_ name: String, in folder: URL) -> URL { folder.appendingPathComponent(name, isDirectory: false) }

    /// The entry record of the ONNX file `onnx`.
    static func entryURL(_ onnx: URL) -> URL { onnx.deletingPathExtension().appendingPathExtension("entry") }

    /// `<stem>-<32 hex digits of key>-r<revision>.onnx`: the stem with characters other than ASCII letters, digits,
    /// `.`, `_` and `-` as `_`, cut to 64 bytes, so the name stays far below NAME_MAX (255).
    static func entryName(_ url: URL, key: String, revision: Int) -> String {
        let stem = url.deletingPathExtension().lastPathComponent.unicodeScalars.prefix(64).map { c -> String in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "." || c == "_" || c == "-")
                ? String(c) : "_"
        }.joined()
        return "\(stem)-\(key.prefix(32))-r\(revision).onnx"
    }

    /// Whether `name` (read from a stamp file) is an entry name of `revision`, in the folder itself.
    static func isEntryName(_ name: String, revision: Int) -> Bool {
        name.utf8.count <= 128 && !name.contains("/") && !name.hasPrefix(".") && name.hasSuffix("-r\(revision).onnx")
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
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            let inode = (attributes[.systemFileNumber] as? Int) ?? 0
            text += "\u{0}\(relative)\u{0}\(size)\u{0}\(modified.timeIntervalSince1970)\u{0}\(inode)"
        }
        return "stamp-" + SHA256.hex(Array(text.utf8)).prefix(32)
    }
}
