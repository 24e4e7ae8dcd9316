import Foundation

/// Runs the built `openvision` binary as a user would, for tests that check its output and exit status.
public enum CLIProcess {
    /// What one run printed and how it ended.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The binary, beside the test bundle in the build products folder.
    public static let binary: URL = {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("openvision")
    }()

    /// Runs the binary off the cooperative thread pool (it blocks while the child runs).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await blocking { try runBlocking(arguments, environment: environment) }
    }

    /// Runs the binary on the calling thread and waits for it.
    public static func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A new empty folder under the temporary directory.
    public static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-cli-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
