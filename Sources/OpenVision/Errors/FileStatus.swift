import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What is at a path, from stat(2), so that an error can say what happened: a missing file, a
/// dangling symbolic link, a symlink loop, a permission problem, or a directory where a file was
/// expected are different messages, not all "no such file".
enum FileStatus: Sendable {
    case file(size: Int)
    case directory
    /// A device, FIFO or socket.
    case other
    /// Nothing usable is there; the error says why (`fileNotFound` or `ioError`).
    case unreachable(VisionError)

    /// The status of `path`; `what` names it in messages ("model file", "image file").
    static func of(_ path: String, what: String = "file") -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { return .unreachable(error(errno, path: path, what: what)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// The error for a failed stat/open of `path` with `code` (an errno value).
    static func error(_ code: Int32, path: String, what: String) -> VisionError {
        switch code {
        case ENOENT:
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                return VisionError(.fileNotFound, "\(path) is a symbolic link to a missing \(what)")
            }
            return VisionError(.fileNotFound, "no such \(what): \(path)")
        case ELOOP:
            return VisionError(.ioError, "cannot open \(path): too many levels of symbolic links (a symlink loop)")
        case EACCES, EPERM:
            return VisionError(.ioError, "cannot open \(path): permission denied")
        case ENOTDIR:
            return VisionError(.fileNotFound, "no such \(what): \(path) (a part of the path is not a directory)")
        case ENAMETOOLONG:
            return VisionError(.invalidArgument, "the path is too long: \(path.prefix(80))…")
        default:
            return VisionError(.ioError, "cannot open \(path): \(String(cString: strerror(code)))")
        }
    }

    /// The regular file at `path`, or a typed error saying why it is not one.
    @discardableResult
    static func requireFile(_ path: String, what: String) throws(VisionError) -> Int {
        switch of(path, what: what) {
        case .file(let size): return size
        case .directory: throw VisionError(.ioError, "\(path) is a directory, not a \(what)")
        case .other:
            throw VisionError(.ioError, "\(path) is not a regular file (a device, pipe or socket), not a \(what)")
        case .unreachable(let error): throw error
        }
    }
}
