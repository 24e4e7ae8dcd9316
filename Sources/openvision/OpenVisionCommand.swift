import ArgumentParser

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
}
