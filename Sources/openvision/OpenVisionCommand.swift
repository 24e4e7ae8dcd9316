import ArgumentParser
import Foundation

@main
struct OpenVisionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openvision",
        abstract:
            "Apple Vision-style image analysis on Linux: barcodes, rectangles, faces, landmarks, text, objects, classes.",
        version: "0.3.0-dev",
        subcommands: [
            AnalyzeCommand.self, DetectCommand.self, ClassifyCommand.self, PredictCommand.self, VideoCommand.self,
            LiveCommand.self,
            CamerasCommand.self, ModelsCommand.self, GenerateBarcodeCommand.self,
            RegisterCommand.self, FlowCommand.self, TrackCommand.self, ServeCommand.self,
            JobsCommand.self, WorkerCommand.self,
        ]
    )

    /// Parses the command line, runs the command and ends the process with its status, as ArgumentParser's `main()`
    /// does, but through `_exit` once standard output and error are flushed: ONNX Runtime's global thread pool
    /// outlives every command, and `exit`'s C++ static destructors freed memory its threads still read
    /// (AddressSanitizer: heap-use-after-free in `models info`, `predict`, `classify` on a loaded machine).
    static func main() async {
        var status: Int32 = 0
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    FileHandle.standardError.write(Data((message + "\n").utf8))
                }
            }
            status = code.rawValue
        }
        fflush(nil)
        _exit(status)
    }
}
