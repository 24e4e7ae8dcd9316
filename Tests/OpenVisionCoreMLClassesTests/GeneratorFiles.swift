import Foundation

/// Where the generator's tests find their inputs: `../shared` beside the repository (or `OPENVISION_SHARED`), the
/// repository's Tests/Fixtures, and the build products folder the test bundle runs from.
enum GeneratorFiles {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["OPENVISION_SHARED"] { return URL(fileURLWithPath: env) }
        return repository.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let fixtures = repository.appendingPathComponent("Tests/Fixtures")

    /// The build products folder (`.build/<triple>/debug`): the test bundle's folder.
    static let products: URL = {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        return dir
    }()

    /// A new empty folder under the temporary directory.
    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-classes-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
