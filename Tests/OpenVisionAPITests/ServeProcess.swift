import Foundation
import OpenVisionTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `openvision serve --port 0 …` run as a user would: started, its port read from the line it
/// prints, stopped with SIGTERM (or left to exit by itself).
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let output = Pipe()
    private let errors: URL

    /// Starts the server with `arguments` after `serve --port 0` and waits (generously) until it listens.
    /// Unless `arguments` set one, the request timeout is 600 s: under a loaded test run (ASan, parallel
    /// suites) a first request that loads a model can take far longer than the 30 s default.
    init(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = CLIProcess.binary
        process.arguments =
            ["serve", "--port", "0"] + (arguments.contains("--timeout") ? [] : ["--timeout", "600"]) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("ov-serve-\(UUID()).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // "openvision serve: listening on http://127.0.0.1:PORT"
        var line = Data()
        let reader = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(120)
        while !line.contains(UInt8(ascii: "\n")) {
            guard Date() < deadline, process.isRunning || reader.availableData.count > 0 else { break }
            let chunk = reader.availableData
            if chunk.isEmpty { usleep(20_000) } else { line.append(chunk) }
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on http://127.0.0.1:"),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw TestError(
                "serve did not report its port: \(text) \(String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))"
            )
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: errors)
    }

    /// What the server wrote on standard error so far.
    var log: String { String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self) }

    /// Sends `signal` (default SIGTERM).
    func signal(_ signal: Int32 = SIGTERM) { kill(process.processIdentifier, signal) }

    /// Waits up to `timeout` seconds for the process to exit; its status, or nil if it is still running.
    func waitForExit(timeout: Double = 60) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Its resident set size in kB (from /proc).
    var rssKB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
