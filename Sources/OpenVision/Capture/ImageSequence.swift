import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Image files read as a frame sequence: the one place a `FrameSource.images` source (a directory
/// or a printf pattern) becomes an ordered list of files, each decoded with `VisionImage(contentsOf:)`.
/// The CLI lists the directories it is given for still images with `imageFiles(inDirectory:)`.
///
/// - A directory: its image files (extensions in `imageExtensions`, any case; names starting with
///   "." skipped) in natural name order: runs of digits compare by their value, so `f2.png` comes
///   before `f10.png`, as a pattern orders them; zero-padded names keep plain name order.
/// - A pattern: the file name part holds one `%d`, `%Nd` or `%0Nd` (`%%` is a literal `%`; the
///   directory part is taken literally). Every file of that directory whose name is what printf
///   makes of the pattern for some number n ≥ 0 belongs to the sequence, ordered by n; gaps in the
///   numbering are skipped over (OpenCV's `CAP_IMAGES`, used before, stopped at the first gap).
///
/// The list is fixed when resolved; a file that then fails to decode fails `image(at:)`.
package struct ImageSequence: Sendable {
    /// Lower-case extensions, without the dot, of the files a directory listing keeps.
    package static let imageExtensions = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"]

    /// The directory or pattern as given.
    package let source: String
    /// The files, in frame order; never empty.
    package let files: [URL]

    /// Resolves `source`. Errors: `fileNotFound` for a missing directory, a directory without image
    /// files or a pattern no file matches; `ioError` for a directory that cannot be read (the
    /// message says why); `invalidArgument` for a regular file or an unsupported pattern.
    package init(resolving source: String) throws(VisionError) {
        self.source = source
        let url = URL(fileURLWithPath: source)
        if !Self.isDirectory(source), url.lastPathComponent.contains("%") {
            let pattern = try NumberPattern(fileName: url.lastPathComponent, in: source)
            let directory = url.deletingLastPathComponent().path
            let numbered = try Self.entries(ofDirectory: directory, for: source).compactMap { name in
                pattern.number(in: name).map { (number: $0, name: name) }
            }
            guard !numbered.isEmpty else {
                throw VisionError(
                    .fileNotFound,
                    "no file in \(directory) matches the pattern \(source) "
                        + "(printf-style: \(pattern.example) for 0, 1, 2, …)")
            }
            files = numbered.sorted { $0.number < $1.number }.map {
                url.deletingLastPathComponent().appendingPathComponent($0.name)
            }
        } else {
            files = try Self.imageFiles(inDirectory: source)
        }
    }

    /// The image files of the directory at `path`, in natural name order (see the type's notes);
    /// throws as `init(resolving:)` does for a directory, so the result is never empty.
    package static func imageFiles(inDirectory path: String) throws(VisionError) -> [URL] {
        let names = try entries(ofDirectory: path, for: path).filter { name in
            !name.hasPrefix(".") && imageExtensions.contains((name as NSString).pathExtension.lowercased())
        }
        guard !names.isEmpty else {
            throw VisionError(
                .fileNotFound,
                "no image files in \(path) (looked for "
                    + imageExtensions.map { "." + $0 }.joined(separator: ", ") + ")")
        }
        let directory = URL(fileURLWithPath: path)
        return names.sorted(by: precedesInNaturalOrder).map { directory.appendingPathComponent($0) }
    }

    /// Decodes frame `index` (0..<files.count). A file that fails to decode is an error naming
    /// the frame and the file, with the decoder's code (`invalidImage`, `ioError`, `fileNotFound`).
    package func image(at index: Int) throws(VisionError) -> VisionImage {
        let file = files[index]
        do {
            return try VisionImage(contentsOf: file)
        } catch {
            let detail = error.message.contains(file.path) ? error.message : "\(file.path): \(error.message)"
            throw VisionError(error.code, "frame \(index) of image sequence \(source): \(detail)", cause: error)
        }
    }

    /// True when `a` sorts before `b` in natural order: digit runs compare by value (then the one
    /// with fewer leading zeros first), everything else by UTF-8 byte; equal names by byte order.
    package static func precedesInNaturalOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            guard isDigit(x[i]) && isDigit(y[j]) else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1
                j += 1
                continue
            }
            let startX = i
            let startY = j
            while i < x.count && isDigit(x[i]) { i += 1 }
            while j < y.count && isDigit(y[j]) { j += 1 }
            // Without leading zeros, a longer run is a larger number; equal lengths compare digit by digit.
            let digitsX = x[startX..<i].drop { $0 == UInt8(ascii: "0") }
            let digitsY = y[startY..<j].drop { $0 == UInt8(ascii: "0") }
            if digitsX.count != digitsY.count { return digitsX.count < digitsY.count }
            if !digitsX.elementsEqual(digitsY) { return digitsX.lexicographicallyPrecedes(digitsY) }
        }
        if i < x.count || j < y.count { return i == x.count }  // a prefix comes first
        return x.lexicographicallyPrecedes(y)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The names in the directory at `path` (unsorted); `source` is what the user gave, for messages.
    private static func entries(ofDirectory path: String, for source: String) throws(VisionError) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw VisionError(
                    .fileNotFound,
                    path == source
                        ? "no such directory: \(path)"
                        : "no such directory: \(path) (of the pattern \(source))")
            }
            throw VisionError(.ioError, "cannot read directory \(path): \(String(cString: strerror(code)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw VisionError(
                .invalidArgument,
                "\(path) is a file, not a directory of images or a printf pattern "
                    + "such as dir/img_%04d.jpg")
        }
        // opendir/readdir rather than Foundation's listing, which takes a failed readdir for the end.
        guard let directory = opendir(path) else {
            throw VisionError(.ioError, "cannot read directory \(path): \(String(cString: strerror(errno)))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                guard errno == 0 else {
                    throw VisionError(.ioError, "cannot read directory \(path): \(String(cString: strerror(errno)))")
                }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}

/// A file name with one printf number conversion (`%d`, `%Nd`, `%0Nd`), as `ImageSequence` matches it.
private struct NumberPattern {
    let prefix: String
    let suffix: String
    let width: Int
    let zeroPadded: Bool

    /// Parses `fileName`; `source` (the whole pattern) is for the message of an unsupported one.
    init(fileName: String, in source: String) throws(VisionError) {
        let unsupported = VisionError(
            .invalidArgument,
            "unsupported image sequence pattern \(source): the file name needs "
                + "exactly one %d, %Nd or %0Nd (such as img_%04d.jpg; %% for a literal %)")
        var prefix = ""
        var suffix = ""
        var width = 0
        var zeroPadded = false
        var found = false
        var characters = fileName[...]
        while let c = characters.popFirst() {
            guard c == "%" else {
                if found { suffix.append(c) } else { prefix.append(c) }
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                if found { suffix.append("%") } else { prefix.append("%") }
                continue
            }
            guard !found else { throw unsupported }
            if characters.first == "0" {
                zeroPadded = true
                characters.removeFirst()
            }
            let digits = characters.prefix { $0.isASCII && $0.isNumber }
            characters.removeFirst(digits.count)
            guard characters.popFirst() == "d", digits.count <= 3 else { throw unsupported }
            width = Int(digits) ?? 0
            found = true
        }
        guard found else { throw unsupported }
        (self.prefix, self.suffix, self.width, self.zeroPadded) = (prefix, suffix, width, zeroPadded)
    }

    /// What printf makes of the pattern for `n`.
    func render(_ n: Int) -> String {
        let digits = String(n)
        return prefix + String(repeating: zeroPadded ? "0" : " ", count: max(0, width - digits.count)) + digits + suffix
    }

    /// The pattern for 0, as an example in messages.
    var example: String { render(0) }

    /// n when `name` is exactly `render(n)` for some n ≥ 0, else nil.
    func number(in name: String) -> Int? {
        guard name.count > prefix.count + suffix.count, name.hasPrefix(prefix), name.hasSuffix(suffix) else {
            return nil
        }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        let digits = middle.drop { $0 == " " }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) else { return nil }
        return render(n) == name ? n : nil
    }
}
