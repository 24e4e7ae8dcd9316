import ArgumentParser
import Foundation
import OpenVision

/// Runs a command's work over image files: a progress bar on a terminal, one line on standard
/// error per input directory or image that fails, and exit status 1 at the end if any failed.
enum BatchRunner {
    /// Reports `inputs.failures`, then calls `body` for each file; it returns false for an image that
    /// produced a partial failure.
    static func run(_ inputs: ImageFiles, _ body: (URL) async throws -> Bool) async throws {
        for error in inputs.failures {
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
        }
        let files = inputs.files
        let progress = ProgressBar(total: files.count, enabled: files.count > 1)
        var failures = inputs.failures.count
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
