import Foundation

/// Typechecks Swift files against the `CoreML` compatibility module of this build, as a package target using the
/// CoreMLModelClasses plugin compiles the generated classes: `swiftc -typecheck` with the build's modules and the
/// C targets' module maps, and `Bundle.module` declared as SwiftPM declares it for a target with resources.
enum SwiftTypecheck {
    /// What the compiler said, and whether it accepted the files.
    struct Outcome {
        var accepted: Bool
        var diagnostics: String
    }

    /// `Bundle.module`, which SwiftPM generates for a target with resources.
    static let bundleStub = "import Foundation\nextension Bundle { static var module: Bundle { Bundle.main } }\n"

    /// Typechecks `files` (with `bundleStub`) as one module.
    static func run(_ files: [URL]) throws -> Outcome {
        let products = GeneratorFiles.products
        let dir = try GeneratorFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stub = dir.appendingPathComponent("BundleStub.swift")
        try bundleStub.write(to: stub, atomically: true, encoding: .utf8)
        var arguments = ["swiftc", "-typecheck", "-I", products.appendingPathComponent("Modules").path]
        for map in moduleMaps(products) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        for include in [
            GeneratorFiles.repository.appendingPathComponent("Sources/CNative/include").path,
            "/usr/include/opencv4", "/usr/local/include",
        ] {
            arguments += ["-Xcc", "-I\(include)"]
        }
        arguments += files.map(\.path) + [stub.path]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let log = dir.appendingPathComponent("swiftc.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(accepted: process.terminationStatus == 0, diagnostics: text)
    }

    /// The module maps of the build's C targets (SwiftPM writes them beside each target's build folder) and of the
    /// sources (CNative's, the system-library carriers').
    static func moduleMaps(_ products: URL) -> [URL] {
        var maps: [URL] = []
        let fm = FileManager.default
        for entry in (try? fm.contentsOfDirectory(atPath: products.path)) ?? []
        where entry.hasSuffix(".build")
            && !entry.hasSuffix("-tool.build")
        {
            let map = products.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
            if fm.fileExists(atPath: map.path) { maps.append(map) }
        }
        let sources = GeneratorFiles.repository.appendingPathComponent("Sources")
        if let walker = fm.enumerator(at: sources, includingPropertiesForKeys: nil) {
            for case let file as URL in walker where file.lastPathComponent == "module.modulemap" { maps.append(file) }
        }
        return maps
    }
}
