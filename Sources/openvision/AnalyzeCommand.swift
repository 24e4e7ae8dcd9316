import ArgumentParser
import Foundation
import OpenVision

/// `openvision analyze`: runs the built-in requests on images and prints JSON or text.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Detect barcodes, rectangles, faces, landmarks, text, contours, horizons, saliency, text regions and documents in images.",
        discussion: """
        Prints one JSON object per image (pretty for one image, one line each for several); the
        schema is in docs/json-schema.md. Boxes are given normalised (0...1, lower-left origin, as
        Vision) and in pixels (top-left origin). Exits 1 if any image could not be analysed.
        """
    )

    @Argument(help: "Image files or directories (JPEG, PNG, WebP, BMP, TIFF).")
    var inputs: [String]

    @Option(name: .shortAndLong, parsing: .singleValue,
            help: "Requests to run, comma-separated (repeatable): barcodes, rectangles, faces, landmarks, text, contours, horizon, saliency, objectness, textrects, document, animals, humans, handpose (hand poses), bodypose (body poses), personmask (person segmentation).")
    var requests: [String] = ["barcodes,rectangles,faces,landmarks,text"]

    @Option(name: .shortAndLong, help: "Output format: json or text (table).")
    var format: OutputFormat = .json

    @Option(help: "Write an annotated copy: a file for one image, or a directory for several.")
    var annotate: String?

    @Option(help: "Orientation of the input, overriding EXIF: up, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left.")
    var orientation: String?

    @Option(help: "Text recognition languages, comma-separated (e.g. en-US,de or eng+deu).")
    var languages: String?

    @Option(help: "Text recognition level: fast (Tesseract) or accurate (PP-OCRv4 on ONNX Runtime: photos, rotated text; en-US and zh-Hans).")
    var recognitionLevel: RecognizeTextRequest.RecognitionLevel = .fast

    @Option(help: "Face detector for 'faces': hog (dlib), blazeface-short or blazeface-full (MediaPipe BlazeFace; default \(DetectFaceRectanglesRequest.Revision.defaultRevision)).")
    var faceRevision: DetectFaceRectanglesRequest.Revision?

    @Option(help: "Most hands 'handpose' reports (default 2).")
    var maxHands: Int?

    @Option(help: "Maximum barcode/rectangle observations (rectangles default to 16 here; 0 = no limit).")
    var maxRectangles: Int = 16

    @Option(help: "Write image-valued results (saliency heat maps, person masks) into this directory as PNG and .npy; their paths go into the JSON.")
    var maps: String?

    @Flag(help: "Include per-request timings in the output.")
    var timings = false

    @Flag(help: "Treat decoder warnings (a damaged image, e.g. a truncated JPEG) as errors instead of reporting them in \"warnings\".")
    var strict = false

    func run() async throws {
        let kinds = try RequestKind.parse(requests)
        try RequestKind.requireStill(kinds)
        let orientation = try orientation.map { name in
            guard let o = ImageOrientation.allCases.first(where: { $0.description.lowercased() == name.lowercased() }) else {
                throw ValidationError("unknown orientation '\(name)'")
            }
            return o
        }
        let images = ImageFiles(expanding: inputs)
        let annotateTarget = try annotate.map { try AnnotationTarget(path: $0, imageCount: images.files.count) }
        try await BatchRunner.run(images) { file in
            let report = try await analyze(file, kinds: kinds, orientation: orientation, annotateTo: annotateTarget?.url(for: file))
            try ReportOutput.emit(report, format: format, pretty: images.files.count == 1)
            return report.errors == nil
        }
    }

    /// One image's report with this command's options (also what `openvision worker` runs per job).
    func analyze(_ file: URL, kinds: [RequestKind], orientation: ImageOrientation?, annotateTo: URL?) async throws -> AnalysisReport {
        let handler = ImageRequestHandler(file, orientation: orientation, strictDecoding: strict)
        // The same analysis as `openvision serve`'s POST /v1/analyze. Decoded once, timed apart: colour only
        // when an annotated copy is wanted (the built-in requests read the gray plane, some at reduced JPEG scale).
        var analysis = try StillAnalysis(kinds: kinds)
        analysis.maximumRectangles = maxRectangles
        analysis.recognitionLanguages = languages.map { $0.split(whereSeparator: { $0 == "," || $0 == "+" }).map(String.init) }
        analysis.includeTimings = timings
        analysis.recognitionLevel = recognitionLevel
        analysis.faceRevision = faceRevision
        analysis.maximumHandCount = maxHands
        let run = try await analysis.run(on: handler, image: file.path, decodeColor: annotateTo != nil)
        var report = run.report
        var overlay: [OverlayItem] = []
        let facesCovered = kinds.contains(.landmarks)
        for (kind, outcome) in run.outcomes {
            if kind == .faces && facesCovered && outcome.error == nil { continue }
            overlay += OverlayItem.items(for: outcome)
            if let maps, case .success(let value) = outcome.result, let saliency = value as? SaliencyImageObservation {
                try writeMap(saliency.heatMap, for: file, kind: kind, into: maps, report: &report)
            }
            if let maps, case .success(let value) = outcome.result, let mask = value as? PixelBufferObservation,
               mask.featureName == GeneratePersonSegmentationRequest.featureName {
                try writeMap(mask, for: file, kind: kind, into: maps, report: &report)
            }
        }
        if let annotateTo {
            // Saliency heat maps are overlay items too: `annotated(with:)` blends them under the boxes.
            try handler.image().annotated(with: overlay).write(to: annotateTo)
        }
        return report
    }
}

extension AnalyzeCommand {
    /// Writes `map` as `<image>.<request>.png` and `.npy` in `directory` and records their paths in `report`
    /// (as given: relative when `directory` is).
    private func writeMap(_ map: PixelBufferObservation, for file: URL, kind: RequestKind, into directory: String,
                          report: inout AnalysisReport) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = (directory as NSString).appendingPathComponent(file.deletingPathExtension().lastPathComponent + "." + kind.rawValue)
        let png = base + ".png", npy = base + ".npy"
        try map.makeImage().write(to: URL(fileURLWithPath: png))
        try map.writeNPY(to: URL(fileURLWithPath: npy))
        switch kind {
        case .saliency: report.saliency?.heatMap.png = png; report.saliency?.heatMap.npy = npy
        case .objectness: report.objectness?.heatMap.png = png; report.objectness?.heatMap.npy = npy
        case .personmask: report.personMask?.png = png; report.personMask?.npy = npy
        default: break
        }
    }
}

extension Duration {
    var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}

extension RecognizeTextRequest.RecognitionLevel: ExpressibleByArgument {}

extension DetectFaceRectanglesRequest.Revision: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.description) }
}
