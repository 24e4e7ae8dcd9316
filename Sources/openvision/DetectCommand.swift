import ArgumentParser
import Foundation
import OpenVision

/// `openvision detect`: object detection with any YOLO/SSD ONNX export or Darknet YOLO.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect objects with a YOLO/SSD ONNX model or a Darknet .cfg (weights beside it).",
        discussion: "Prints JSON (one object per image; boxes normalised lower-left and in pixels top-left) or a table."
    )

    @Option(name: .shortAndLong, help: "Model: a path, or a file name in the model search path (default: the built-in COCO-80 detector, Yolo-Fastest-1.1-XL).")
    var model: String?

    @Argument(help: "Image files or directories.")
    var inputs: [String]

    @Option(help: "Minimum confidence.") var confidence: Float = 0.25
    @Option(help: "NMS IoU threshold.") var iou: Float = 0.45
    @Option(help: "Only these labels, comma-separated.") var classes: String?
    @Option(help: "Backend: automatic, onnxRuntime, openCV.") var backend: String = "automatic"
    @Option(help: "Inference threads (0 = all cores).") var threads: Int = 0
    @Option(help: "Output format: json or table.") var format: OutputFormat = .json
    @Option(help: "Write annotated images: a file for one image, a directory for several.") var annotate: String?
    @Flag(help: "Include per-stage timings (decode, preprocess, inference, postprocess).") var timings = false
    @Option(help: "Input normalisation (pixel × scale − mean) / std: the pixel multiplier (default the model's, usually 1/255).")
    var pixelScale: Float?
    @Option(help: "Per-channel mean after scaling: one number or R,G,B (UltraFace: --pixel-scale 1 --pixel-mean 127 --pixel-std 128).")
    var pixelMean: String?
    @Option(help: "Per-channel divisor: one number or R,G,B.")
    var pixelStd: String?
    @Option(help: "How images fit the input: scaleFit (letterbox), scaleFill (stretch) or centerCrop (default: the model's; stretch for Darknet, letterbox otherwise).")
    var cropAndScale: String?
    @Flag(help: "Show the inference runtime's warnings (ONNX Runtime logs errors only by default).")
    var verbose = false

    @Flag(help: "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\".")
    var strict = false

    func run() async throws {
        if verbose { setenv("OPENVISION_ORT_LOG_LEVEL", "warning", 1) }
        let normalization = ModelOptions.Normalization(scale: pixelScale, mean: pixelMean, std: pixelStd)
        let model = try model.map { try ModelOptions.load($0, backend: backend, threads: threads, normalization: normalization) }
            ?? ModelOptions.loadDefaultDetector(backend: backend, threads: threads)
        var request = DetectObjectsRequest(model: model)
        if let cropAndScale {
            guard let option = ImageCropAndScaleOption(rawValue: cropAndScale) else {
                throw ValidationError("unknown --crop-and-scale '\(cropAndScale)'; choose from "
                                      + ImageCropAndScaleOption.allCases.map(\.rawValue).joined(separator: ", "))
            }
            request.imageCropAndScaleOption = option
        }
        request.confidenceThreshold = confidence
        request.iouThreshold = iou
        if let classes { request.allowedLabels = Set(classes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        let images = ImageFiles(expanding: inputs)
        let target = try annotate.map { try AnnotationTarget(path: $0, imageCount: images.files.count) }
        try await BatchRunner.run(images) { file in
            // The handler decodes a large JPEG only at the scale the model's input needs; annotating
            // decodes it again at full size.
            let handler = ImageRequestHandler(file, strictDecoding: strict)
            let (objects, stages) = try request.performWithTimings(in: handler.context)
            var report = try ReportOutput.report(for: file, handler: handler, stages: stages, timings: timings)
            report.add(objects)
            if let url = target?.url(for: file) {
                try handler.image().annotated(with: objects.overlayItems)
                    .write(to: url)
            }
            try ReportOutput.emit(report, format: format, pretty: images.files.count == 1)
            return true
        }
    }
}
