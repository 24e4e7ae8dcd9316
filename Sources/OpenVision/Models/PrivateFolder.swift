import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Folders only the current user may write (mode 0700, owned by the user, not a symbolic link), and files in them
/// read and written without following links: where `ConvertedModelCache` keeps converted models.
enum PrivateFolder {
    /// Makes `url` a private folder and says whether it is one that can be written: created with mode 0700 (when
    /// `creatingParents`, its missing parents too, each 0700 as the XDG specification asks), or when it exists, used
    /// only if it is a real folder owned by this user, then set to 0700.
    static func prepare(_ url: URL, creatingParents: Bool) -> Bool {
        if creatingParents {
            let parent = url.deletingLastPathComponent()
            if !FileManager.default.fileExists(atPath: parent.path) {
                try? FileManager.default.createDirectory(
                    at: parent, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            // The folder above (`openvision`) is the user's alone too: nobody else may rename what is in it.
            if parent.lastPathComponent == "openvision", !prepare(parent, creatingParents: false) { return false }
        }
        let path = url.path
        if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { return false }
        if info.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 { return false }
        return access(path, W_OK | X_OK) == 0
    }

    /// The size of `url` when it is a regular file (not a link) owned by this user; else nil.
    static func ownedFileSize(_ url: URL) -> Int? {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else { return nil }
        return Int(info.st_size)
    }

    /// The bytes of `url` when it is a regular file owned by this user (links not followed) of at most `limit` bytes;
    /// else nil.
    static func read(_ url: URL, limit: Int) -> [UInt8]? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
            info.st_size <= limit
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit + 1 - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return count <= limit ? Array(bytes.prefix(count)) : nil
    }

    /// Writes `data` to `url` atomically: a temporary file beside it, renamed over whatever is there (a folder in its
    /// way is removed first: it is not an entry). False when it cannot.
    @discardableResult
    static func write(_ data: Data, to url: URL) -> Bool {
        let staging = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString)")
        guard (try? data.write(to: staging)) != nil else {
            unlink(staging.path)
            return false
        }
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            try? FileManager.default.removeItem(at: url)
        }
        guard rename(staging.path, url.path) == 0 else {
            unlink(staging.path)
            return false
        }
        return true
    }

    /// A new private folder for this process (`$TMPDIR/openvision-<uid>-<random>`), made on first use: the last resort
    /// when neither the user's cache nor the per-user temporary folder can be used.
    static let processFolder: URL? = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openvision-\(getuid())-\(UUID().uuidString)")
        return mkdir(url.path, 0o700) == 0 ? url : nil
    }()
}
