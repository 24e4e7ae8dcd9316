import ArgumentParser
import Foundation
import OpenVision

/// `openvision analyze`: runs the built-in requests on images and prints JSON or text.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract:
            "Detect barcodes, rectangles, faces, landmarks, text, contours, horizons, saliency, text regions and documents in images.",
        discussion: """
            Prints one JSON object per image (pretty for one image, one line each for several); the
            schema is in docs/json-schema.md. Boxes are given normalised (0...1, lower-left origin, as
            Vision) and in pixels (top-left origin). Exits 1 if any image could not be analysed.
            """
    )

    @Argument(help: "Image files or directories (JPEG, PNG, WebP, BMP, TIFF).")
    var inputs: [String]

    @Option(
        name: .shortAndLong, parsing: .singleValue,
        help: ArgumentHelp(
            RequestKind.help(includingSequences: false) + " Repeatable. Default: "
                + RequestKind.stillDefaults.map(\.name).joined(separator: ",") + "."))
    var requests: [String] = []

    @Option(name: .shortAndLong, help: "Output format: json or text (table).")
    var format: OutputFormat = .json

    @Option(help: "Write an annotated copy: a file for one image, or a directory for several.")
    var annotate: String?

    @Option(
        help:
            "Orientation of the input, overriding EXIF: up, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left."
    )
    var orientation: String?

    @OptionGroup var requestOptions: RequestOptionFlags<StillScope>

    @Option(
        help:
            "Write image-valued results (saliency heat maps, person masks) into this directory as PNG and .npy; their paths go into the JSON."
    )
    var maps: String?

    @Flag(help: "Include per-request timings in the output.")
    var timings = false

    @Flag(
        help:
            "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\"."
    )
    var strict = false

    func run() async throws {
        let kinds = requests.isEmpty ? RequestKind.stillDefaults : try RequestKind.parse(requests)
        try RequestKind.requireStill(kinds)
        let orientation = try orientation.map { name in
            guard let o = ImageOrientation.allCases.first(where: { $0.description.lowercased() == name.lowercased() })
            else {
                throw ValidationError("unknown orientation '\(name)'")
            }
            return o
        }
        var analysis: StillAnalysis
        do {
            analysis = try StillAnalysis(
                kinds: kinds, options: try requestOptions.options(base: StillAnalysis.stillDefaults))
        } catch let error as VisionError {
            throw ValidationError(error.message)
        }
        analysis.includeTimings = timings
        try await ModelOptions.loadModels(&analysis)
        let images = ImageFiles(expanding: inputs)
        let annotateTarget = try annotate.map { try AnnotationTarget(path: $0, imageCount: images.files.count) }
        let maps = self.maps.map(MapDirectory.init(path:))
        let fixed = analysis
        let files = images.files
        // While one image is analysed, the next one is analysed too (decoded and its requests run, on another task):
        // the face models run one thread each and a file's work is mostly sequential, so one file at a time leaves a
        // core of a small machine idle. Reports are written in order; an image's decoding error comes from its own
        // run. At most two images are decoded at once (as when only the next one's decode ran ahead).
        var ahead: (file: URL, handler: ImageRequestHandler, run: Task<StillAnalysis.Run, any Error>)?
        var position = 0
        func start(_ file: URL) -> (URL, ImageRequestHandler, Task<StillAnalysis.Run, any Error>) {
            let handler = ImageRequestHandler(file, orientation: orientation, strictDecoding: strict)
            // Decoded once, timed apart: colour only when an annotated copy is wanted (the built-in requests read
            // the gray plane, some at reduced JPEG scale).
            let decodeColor = annotateTarget?.url(for: file) != nil
            let map = maps?.forImage(file)
            return (
                file, handler,
                Task.detached {
                    try await fixed.run(on: handler, image: file.path, decodeColor: decodeColor, maps: map)
                }
            )
        }
        try await BatchRunner.run(images) { file in
            let current: (file: URL, handler: ImageRequestHandler, run: Task<StillAnalysis.Run, any Error>)
            if let ahead, ahead.file == file {
                current = ahead
            } else {
                ahead?.run.cancel()
                current = start(file)
            }
            ahead = nil
            if let index = files[position...].firstIndex(of: file) { position = index + 1 }
            if position < files.count { ahead = start(files[position]) }
            let run = try await current.run.value
            if let annotateTo = annotateTarget?.url(for: file) {
                // Saliency heat maps are overlay items too: `annotated(with:)` blends them under the boxes.
                try current.handler.image().annotated(with: run.overlayItems).write(to: annotateTo)
            }
            try ReportOutput.emit(run.report, format: format, pretty: images.files.count == 1)
            return run.report.errors == nil
        }
    }
}

extension RecognizeTextRequest.RecognitionLevel: ExpressibleByArgument {}
