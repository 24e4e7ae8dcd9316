import ArgumentParser

@main
struct OpenVisionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openvision",
        abstract: "Apple Vision-style image analysis on Linux: barcodes, rectangles, faces, landmarks, text.",
        version: "0.1.0",
        subcommands: [AnalyzeCommand.self, GenerateBarcodeCommand.self]
    )
}
