import Foundation

extension CLIProcess {
    /// Runs the binary like `run(_:environment:)`, but kills it (SIGKILL) once `seconds` have passed, so a
    /// hang fails the test instead of stalling the suite. `timedOut` tells whether the deadline ended it.
    /// With `addressSpace` (KiB, `ulimit -v`), a run that tries to allocate past it fails fast instead of
    /// taking the machine's memory.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], deadline seconds: Double,
        addressSpace: Int? = nil
    ) async throws -> (run: Run, timedOut: Bool) {
        try await blocking {
            let process = Process()
            if let addressSpace {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "ulimit -v \(addressSpace) && exec \"$0\" \"$@\"", binary.path] + arguments
            } else {
                process.executableURL = binary
                process.arguments = arguments
            }
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            // Drain both pipes while waiting, so a chatty child cannot block on a full pipe.
            let stdout = PipeContents()
            let stderr = PipeContents()
            let readers = DispatchGroup()
            DispatchQueue.global().async(group: readers) {
                stdout.data = out.fileHandleForReading.readDataToEndOfFile()
            }
            DispatchQueue.global().async(group: readers) {
                stderr.data = err.fileHandleForReading.readDataToEndOfFile()
            }
            var timedOut = false
            if ended.wait(timeout: .now() + seconds) == .timedOut {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                ended.wait()
            }
            readers.wait()
            return (
                Run(
                    status: process.terminationStatus, stdout: String(decoding: stdout.data, as: UTF8.self),
                    stderr: String(decoding: stderr.data, as: UTF8.self)), timedOut
            )
        }
    }
}

/// What one reader thread read from a pipe; written once by that thread before the group is waited on.
private final class PipeContents: @unchecked Sendable {
    var data = Data()
}
