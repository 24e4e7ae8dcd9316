import ArgumentParser
import Foundation
import OpenVision

/// `openvision detect`: object detection with any YOLO/SSD ONNX export, Core ML detector or Darknet YOLO (the `detect`
/// request kind; its options are the registry's).
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects with a YOLO/SSD ONNX model or a Darknet .cfg (weights beside it).",
        discussion: "Prints JSON (one object per image; boxes normalised lower-left and in pixels top-left) or a table."
    )

    @Argument(help: "Image files or directories.")
    var inputs: [String]

    @OptionGroup var requestOptions: RequestOptionFlags<DetectScope>
    @Option(help: "Output format: json or table.") var format: OutputFormat = .json
    @Option(help: "Write annotated images: a file for one image, a directory for several.") var annotate: String?
    @Flag(help: "Include per-stage timings (decode, preprocess, inference, postprocess).") var timings = false
    @Flag(help: "Show the inference runtime's warnings (ONNX Runtime logs errors only by default).")
    var verbose = false

    @Flag(
        help:
            "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\"."
    )
    var strict = false

    func run() async throws {
        if verbose { setenv("OPENVISION_ORT_LOG_LEVEL", "warning", 1) }
        try await ModelRun.run(
            "detect", options: try requestOptions.options(), inputs: inputs, format: format,
            annotate: annotate, timings: timings, strict: strict)
    }
}
