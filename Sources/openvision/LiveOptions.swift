import ArgumentParser
import Foundation
import OpenVision

/// What `live` and `video` analyse: request kinds, and a detector (`detect`) with `--model`, `--track` or
/// `--count-line`.
struct AnalysisOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            RequestKind.help(includingSequences: true) + " Default: detect with a "
                + "detector (--model, --track, --count-line), else "
                + RequestKind.liveDefaults.map(\.name).joined(separator: ",") + "."))
    var requests: String?
    @OptionGroup var requestOptions: RequestOptionFlags<LiveScope>

    @Option(help: "Longest side of the analysed copy in pixels (default: twice the model input, or 1280).")
    var analysisSize: Int?
    @Flag(
        help:
            "Track the detected objects (ByteTrack): each object gets a stable track ID in the JSON Lines (trackID), the overlays and the viewer (#ID); tracks starting and ending are events in the JSON Lines. Detector: --model, else the built-in one."
    )
    var track = false
    @Option(
        help: ArgumentHelp(
            "Count tracks whose centre crosses the line from (x1, y1) to (x2, y2), normalised 0...1 with the origin LOWER-left (as every normalised coordinate of the CLI), per class and direction: in = from the left of the direction x1,y1 → x2,y2 to its right as seen in the picture (a line drawn left to right counts downward motion as in). Implies --track.",
            valueName: "x1,y1,x2,y2"))
    var countLine: String?
    @Flag(
        help:
            "With --track: compensate the camera's own motion (BoT-SORT's camera-motion compensation): each analysed frame is registered onto the previous one (homographic registration, as --requests homography) and the tracks' predictions are moved with it. For moving or shaking cameras; costs a registration per frame."
    )
    var cameraMotion = false

    func validate() throws {
        if let countLine { _ = try Self.parseCountLine(countLine) }
        if cameraMotion && !(track || countLine != nil) {
            throw ValidationError("--camera-motion needs --track (or --count-line)")
        }
    }

    /// True when a detector runs: --model, or tracking (--track, --count-line) with the built-in detector.
    var runsDetector: Bool { requestOptions.model != nil || track || countLine != nil }

    /// `x1,y1,x2,y2` (normalised, lower-left origin) as a counter; a clear error for anything else.
    static func parseCountLine(_ text: String) throws -> LineCounter {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard fields.count == 4 else {
            throw ValidationError(
                "--count-line: expected 4 comma-separated numbers x1,y1,x2,y2, got \(fields.count) value\(fields.count == 1 ? "" : "s") in '\(text.prefix(80))'"
            )
        }
        var values: [Double] = []
        for (name, field) in zip(["x1", "y1", "x2", "y2"], fields) {
            guard let value = Double(field), value.isFinite else {
                throw ValidationError("--count-line: \(name) is not a number: '\(field.prefix(40))'")
            }
            guard (0...1).contains(value) else {
                throw ValidationError("--count-line: \(name) = \(field) is outside 0...1 (coordinates are normalised)")
            }
            values.append(value)
        }
        do {
            return try LineCounter(from: CGPoint(x: values[0], y: values[1]), to: CGPoint(x: values[2], y: values[3]))
        } catch {
            throw ValidationError("--count-line: \(error.message)")
        }
    }

    /// Turns on tracking and counting in `configuration` as the flags ask.
    func configureTracking(_ configuration: inout LiveAnalyzer.Configuration) throws {
        if let countLine { configuration.lineCounter = try Self.parseCountLine(countLine) }
        if track || countLine != nil { configuration.tracking = ObjectTracker.Configuration() }
        configuration.compensatesCameraMotion = cameraMotion
    }

    /// One request per kind `--requests` names (or the defaults), the detector first when one runs, with the options
    /// given (Vision's defaults otherwise: video and live keep `DetectRectanglesRequest`'s one rectangle).
    func makeRequests() async throws -> [any VisionRequest] {
        let options = try requestOptions.options()
        let kinds: [RequestKind]
        do { kinds = try Self.kinds(requests, detector: runsDetector) } catch { throw ValidationError(error.message) }
        do {
            return try await Self.makeRequests(kinds, options: options)
        } catch {
            throw ModelOptions.failure(error)
        }
    }

    /// The kinds a live analysis runs: those `requests` names (comma-separated), else none with a detector and
    /// `RequestKind.liveDefaults` without; `detect` first when `detector` (tracking follows detected objects: without
    /// a model, those of the built-in detector). `invalidArgument` for an unknown name or nothing to run.
    static func kinds(_ requests: String?, detector: Bool) throws(VisionError) -> [RequestKind] {
        var kinds =
            try requests.map { names throws(VisionError) in
                names.isEmpty ? [] : try RequestKind.kinds(from: [names])
            } ?? (detector ? [] : RequestKind.liveDefaults)
        if detector, let detect = RequestKind.named("detect") {
            kinds.removeAll { $0 == detect }
            kinds.insert(detect, at: 0)
        }
        guard !kinds.isEmpty else {
            throw VisionError(.invalidArgument, "nothing to analyse: give --model and/or --requests")
        }
        return kinds
    }

    /// One request per kind, with `options` and the models they name (`LocalModels`): what `live`, `video` and stream
    /// jobs run.
    static func makeRequests(_ kinds: [RequestKind], options: RequestOptions) async throws(VisionError)
        -> [any VisionRequest]
    {
        var requests: [any VisionRequest] = []
        for kind in kinds {
            let model = try await kind.model(for: options, loader: LocalModels.shared)
            requests.append(try kind.makeRequest(options, model: model))
        }
        return requests
    }
}

/// Writes one JSON object per analysed frame.
/// Used from one task at a time.
final class JSONLinesWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let encoder = JSONEncoder()

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
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
        var report = AnalysisReport(result)
        report.timingsMs = ["latency": result.latency.milliseconds, "analysis": result.analysis.milliseconds]
        return report
    }

    func close() { try? handle.close() }
}
