import ArgumentParser
import Foundation
import OpenVision

/// What `live` and `video` analyse: built-in requests and/or a detector model.
struct AnalysisOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Object detector model (ONNX or Darknet .cfg).")
    var model: String?

    @Option(name: .shortAndLong, help: "Built-in requests, comma-separated: barcodes, rectangles, faces, landmarks, text, contours, horizon, saliency, objectness, textrects, document; sequence requests comparing each analysed frame with the previous one: flow, registration, homography, trajectories (default: none with --model, else barcodes,faces).")
    var requests: String?

    @Option(help: "Minimum detection confidence.") var confidence: Float = 0.25
    @Option(help: "Inference threads (0 = all cores).") var threads: Int = 0
    @Option(help: "Longest side of the analysed copy in pixels (default: twice the model input, or 1280).")
    var analysisSize: Int?

    func makeRequests() throws -> [any VisionRequest] {
        var list: [any VisionRequest] = []
        if let model {
            var request = DetectObjectsRequest(model: try ModelOptions.load(model, backend: "automatic", threads: threads))
            request.confidenceThreshold = confidence
            list.append(request)
        }
        let names = requests ?? (model == nil ? "barcodes,faces" : "")
        for kind in names.isEmpty ? [] : try RequestKind.parse([names]) {
            list.append(kind.defaultRequest)
        }
        guard !list.isEmpty else { throw ValidationError("nothing to analyse: give --model and/or --requests") }
        return list
    }
}

/// Writes one JSON object per analysed frame.
/// Used from one task at a time.
final class JSONLinesWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let encoder = JSONEncoder()

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ValidationError("cannot write \(path)")
        }
        self.handle = handle
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func write(_ result: LiveResult) throws {
        handle.write(try encoder.encode(Self.report(for: result)) + Data("\n".utf8))
    }

    /// One analysed frame's report (also what `openvision worker` stores per frame of a stream job).
    static func report(for result: LiveResult) -> AnalysisReport {
        var report = AnalysisReport(image: "frame", width: result.image.width, height: result.image.height)
        report.frame = result.frameIndex
        report.timestamp = result.sourceTimestamp
        for outcome in result.outcomes { report.add(outcome) }
        report.timingsMs = ["latency": result.latency.milliseconds, "analysis": result.analysis.milliseconds]
        return report
    }

    func close() { try? handle.close() }
}
