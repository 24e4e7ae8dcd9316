import ArgumentParser
import Foundation
import OpenVision

/// Runs a command's work over image files: a progress bar on a terminal, one line on standard
/// error per image that fails, and exit status 1 at the end if any failed.
enum BatchRunner {
    /// Calls `body` for each file; it returns false for an image that produced a partial failure.
    static func run(_ files: [URL], _ body: (URL) async throws -> Bool) async throws {
        let progress = ProgressBar(total: files.count, enabled: files.count > 1)
        var failures = 0
        for (index, file) in files.enumerated() {
            progress.update(index, label: file.lastPathComponent)
            do {
                let ok = try await body(file)
                if !ok { failures += 1 }
                progress.clear()
            } catch let error as VisionError {
                failures += 1
                progress.clear()
                let message = error.message.contains(file.path) ? error.message : "\(file.path): \(error.message)"
                FileHandle.standardError.write(Data("openvision: error: \(message) [\(error.code)]\n".utf8))
            }
        }
        progress.finish()
        if failures > 0 { throw ExitCode(1) }
    }

    /// Writes one line (or pretty block) of output.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
