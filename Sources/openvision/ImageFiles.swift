import Foundation
import OpenVision

/// Expands command-line inputs: files as given, directories to their image files (sorted).
enum ImageFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"]

    static func expand(_ inputs: [String]) throws -> [URL] {
        var files: [URL] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            let url = URL(fileURLWithPath: input)
            if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                let entries = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
                files += entries.filter { extensions.contains($0.pathExtension.lowercased()) }
                    .sorted { $0.lastPathComponent < $1.lastPathComponent }
            } else {
                files.append(url)  // missing files are reported per image
            }
        }
        return files
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
