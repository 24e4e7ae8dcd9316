import Foundation
import OpenVisionTestSupport

/// An `openvision` child process that a test never waits on without a deadline: its standard error goes to
/// a file the test can read while it runs, and a process still running when a wait gives up is killed.
final class BoundedProcess: @unchecked Sendable {
    let process = Process()
    let stderrURL: URL
    let start = ContinuousClock.now

    /// Starts the binary with `arguments`; `environment` entries replace the test's (nil values remove them).
    init(_ arguments: [String], stderr: URL, environment: [String: String?] = [:]) throws {
        stderrURL = stderr
        process.executableURL = CLIProcess.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The exit status (128 + N for a signal), or nil when it was still running after `seconds`: it is
    /// then killed with SIGKILL.
    func wait(_ seconds: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Runs the binary to its end, at most `seconds`: its exit status (nil: killed at the deadline) and standard error.
    static func run(_ arguments: [String], seconds: Double = 60, environment: [String: String?] = [:]) async throws
        -> (status: Int32?, stderr: String)
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ov-bounded-\(UUID()).err")
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try BoundedProcess(arguments, stderr: file, environment: environment)
        let status = await child.wait(seconds)
        return (status, child.stderr)
    }

    /// Polls `condition` every 50 ms for up to `seconds`; true when it held.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
