import Foundation

/// `../shared` beside the repository (or `OPENVISION_SHARED`): the Yolo-Fastest `.cfg`/`.weights`.
enum SharedFiles {
    static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["OPENVISION_SHARED"] { return URL(fileURLWithPath: env) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let models = shared.appendingPathComponent("models/yolo-fastest-1.1-coco")

    static func cfgText(_ name: String) throws -> String {
        try String(contentsOf: models.appendingPathComponent("\(name).cfg"), encoding: .utf8)
    }

    /// A new empty folder under the temporary directory.
    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-conv-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
