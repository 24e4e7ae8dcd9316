import ArgumentParser
import Foundation
import OpenVision

/// `openvision classify`: image classification (default: EfficientNet-Lite0, ImageNet-1k).
struct ClassifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify images (default model: EfficientNet-Lite0, ImageNet-1k, installed by scripts/setup)."
    )

    @Option(name: .shortAndLong, help: "Classifier model (default: efficientnet-lite0.onnx).") var model: String?
    @Argument(help: "Image files or directories.") var inputs: [String]
    @Option(name: .shortAndLong, help: "How many labels per image.") var top: Int = 5
    @Option(help: "Backend: automatic, onnxRuntime, openCV.") var backend: String = "automatic"
    @Option(help: "Inference threads (0 = all cores).") var threads: Int = 0
    @Option(help: "Output format: json or table.") var format: OutputFormat = .json
    @Flag(help: "Include per-stage timings.") var timings = false

    @Flag(help: "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\".")
    var strict = false

    func run() async throws {
        let model = try ModelOptions.load(model ?? "efficientnet-lite0.onnx", backend: backend, threads: threads)
        var request = ClassifyImageRequest(model: model)
        request.maximumObservations = top
        let images = ImageFiles(expanding: inputs)
        try await BatchRunner.run(images) { file in
            // The handler decodes a large JPEG only at the scale the model's input needs.
            let handler = ImageRequestHandler(file, strictDecoding: strict)
            let (labels, stages) = try request.performWithTimings(in: handler.context)
            var report = try ReportOutput.report(for: file, handler: handler, stages: stages, timings: timings)
            report.add(labels)
            try ReportOutput.emit(report, format: format, pretty: images.files.count == 1)
            return true
        }
    }
}
