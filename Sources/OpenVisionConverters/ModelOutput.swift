import Foundation

/// Where converters and compilers write: never into or over their input, never over an existing file or folder
/// unless told to replace it, always complete or not at all. A file or folder is made under a temporary name beside
/// the target and renamed into place; without `replacing`, a target that exists (or appears meanwhile: another run
/// writing the same one) is an `.io` error that says so, and nothing is deleted that the call did not create.
package enum ModelOutput {
    /// `.io` if writing `output` would write over `input` or into it (the same file or folder, a folder holding the
    /// input, or a place inside the input folder), symbolic links resolved.
    package static func refuseOverwriting(input: URL, with output: URL) throws {
        let source = input.resolvingSymlinksInPath().standardizedFileURL.path
        let target = output.resolvingSymlinksInPath().standardizedFileURL.path
        let relation: String?
        if source == target {
            relation = "is its input"
        } else if target.hasPrefix(source.hasSuffix("/") ? source : source + "/") {
            relation = "is inside its input"
        } else if source.hasPrefix(target.hasSuffix("/") ? target : target + "/") {
            relation = "holds its input"
        } else {
            relation = nil
        }
        if let relation {
            throw ConversionError(
                .io,
                "the output \(output.path) \(relation) \(input.lastPathComponent): writing it would "
                    + "destroy the model; choose another output", file: output.path)
        }
    }

    /// `.io` naming `target` when it exists and is not to be replaced.
    package static func refuseExisting(_ target: URL, replacing: Bool) throws {
        guard !replacing, exists(target) else { return }
        throw alreadyExists(target)
    }

    static func alreadyExists(_ target: URL) -> ConversionError {
        ConversionError(
            .io,
            "\(target.lastPathComponent) already exists in \(target.deletingLastPathComponent().path) "
                + "and is left as it is", file: target.path)
    }

    /// Whether anything (a file, folder or link, even a dangling one) is at `url`.
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    /// A name beside `target` for work in progress: hidden, unique.
    static func temporary(beside target: URL, _ kind: String) -> URL {
        target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).\(UUID().uuidString).\(kind)")
    }

    /// Writes `data` to the file `target`: to a temporary file beside it, then linked into place (fails if a
    /// target appeared meanwhile) or, when `replacing`, renamed over it.
    package static func write(_ data: Data, to target: URL, replacing: Bool) throws {
        try refuseExisting(target, replacing: replacing)
        let staging = temporary(beside: target, "partial")
        do {
            try data.write(to: staging)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            var isDirectory: ObjCBool = false
            let folder = target.deletingLastPathComponent().path
            let reason =
                FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
                ? error.localizedDescription : "the folder \(folder) does not exist"
            throw ConversionError(.io, "cannot write the ONNX model: \(reason)", file: target.path)
        }
        defer { unlink(staging.path) }
        if replacing {
            guard rename(staging.path, target.path) == 0 else { throw failure("cannot write", target, errno) }
        } else if link(staging.path, target.path) != 0 {
            let code = errno
            if code == EEXIST { throw alreadyExists(target) }
            // A file system without hard links: checked, then renamed (a target appearing in between is replaced).
            guard [EPERM, ENOSYS, EOPNOTSUPP].contains(code), !exists(target), rename(staging.path, target.path) == 0
            else {
                throw failure("cannot write", target, code)
            }
        }
    }

    /// Moves the folder `staging` (made by the caller beside `target`) to `target`. Without `replacing`, a target
    /// that exists is an error (`rename` refuses a folder that is not empty, and a file); with it, the old target is
    /// moved aside, the new one renamed in, and the old one deleted, or put back if the rename fails. `staging` is
    /// removed when it could not be moved.
    package static func install(folder staging: URL, at target: URL, replacing: Bool) throws {
        let fm = FileManager.default
        defer { if exists(staging) { try? fm.removeItem(at: staging) } }
        try refuseExisting(target, replacing: replacing)
        if !replacing || !exists(target) {
            guard rename(staging.path, target.path) == 0 else {
                let code = errno
                throw [EEXIST, ENOTEMPTY, ENOTDIR, EISDIR].contains(code)
                    ? alreadyExists(target) : failure("cannot write", target, code)
            }
            return
        }
        // Runs replacing the same target at once move each other's results aside: a few rounds settle it.
        var code: Int32 = 0
        for _ in 0..<8 {
            let old = temporary(beside: target, "old")
            if rename(target.path, old.path) != 0 {
                code = errno
                guard code == ENOENT else { break }
            }
            if rename(staging.path, target.path) == 0 {
                try? fm.removeItem(at: old)
                return
            }
            code = errno
            // Put the old one back (unless another run's result is there now: then the old one is obsolete).
            if exists(old) && rename(old.path, target.path) != 0 { try? fm.removeItem(at: old) }
            guard [EEXIST, ENOTEMPTY].contains(code) else { break }
        }
        throw failure("cannot replace", target, code)
    }

    static func failure(_ what: String, _ target: URL, _ code: Int32) -> ConversionError {
        ConversionError(
            .io, "\(what) \(target.lastPathComponent): \(String(cString: strerror(code)))", file: target.path)
    }
}
