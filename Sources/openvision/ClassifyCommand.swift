import ArgumentParser
import Foundation
import OpenVision

/// `openvision classify`: image classification (the `classify` request kind, default model EfficientNet-Lite0,
/// ImageNet-1k; its options are the registry's).
struct ClassifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify images (default model: EfficientNet-Lite0, ImageNet-1k, installed by scripts/setup)."
    )

    @Argument(help: "Image files or directories.") var inputs: [String]
    @OptionGroup var requestOptions: RequestOptionFlags<ClassifyScope>
    @Option(help: "Output format: json or table.") var format: OutputFormat = .json
    @Flag(help: "Include per-stage timings.") var timings = false

    @Flag(
        help:
            "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\"."
    )
    var strict = false

    func run() async throws {
        try await ModelRun.run(
            "classify", options: try requestOptions.options(), inputs: inputs, format: format,
            timings: timings, strict: strict)
    }
}
