import Foundation
import OpenVision

/// Command-line inputs expanded: files as given, directories to their image files as an image
/// sequence lists them (`ImageSequence.imageFiles(inDirectory:)`: the image extensions, natural
/// name order).
struct ImageFiles {
    /// The files to process, in input order; a missing file stays in, to be reported as that image's error.
    let files: [URL]
    /// Directories that gave no files (unreadable, or without image files), each reported like an image that failed.
    let failures: [VisionError]

    init(expanding inputs: [String]) {
        var files: [URL] = []
        var failures: [VisionError] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(URL(fileURLWithPath: input))
                continue
            }
            do {
                files += try ImageSequence.imageFiles(inDirectory: input)
            } catch {
                failures.append(error)
            }
        }
        self.files = files
        self.failures = failures
    }
}

/// Where annotated images go: one file for one image, a directory for several.
struct AnnotationTarget {
    let path: String
    let isDirectory: Bool

    init(path: String, imageCount: Int) throws {
        self.path = path
        var dir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &dir)
        isDirectory = imageCount > 1 || (exists && dir.boolValue)
        if isDirectory && !exists {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    func url(for image: URL) -> URL {
        guard isDirectory else { return URL(fileURLWithPath: path) }
        let name = image.deletingPathExtension().lastPathComponent + "-annotated.png"
        return URL(fileURLWithPath: path).appendingPathComponent(name)
    }
}
