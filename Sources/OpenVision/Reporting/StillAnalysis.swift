import Foundation

/// What `openvision analyze` and `openvision serve`'s `POST /v1/analyze` run on one still image: the
/// built-in requests by kind, configured alike, performed concurrently on one `ImageRequestHandler`
/// (one decode shared by all of them) and reported as one `AnalysisReport` (docs/json-schema.md).
public struct StillAnalysis: Sendable {
    /// The requests to run, in report order; no sequence kinds (see `RequestKind.validateStill`).
    public let kinds: [RequestKind]
    /// `DetectRectanglesRequest.maximumObservations` (0 = no limit); `analyze`'s default is 16.
    public var maximumRectangles = 16
    /// Text recognition languages (e.g. ["en-US", "de"]); nil: the request's default.
    public var recognitionLanguages: [String]?
    /// Text recognition level: `.fast` (Tesseract, the default) or `.accurate` (PP-OCR).
    public var recognitionLevel: RecognizeTextRequest.RecognitionLevel = .fast
    /// The face detector for `faces` (`DetectFaceRectanglesRequest.Revision`); nil: the request's default.
    public var faceRevision: DetectFaceRectanglesRequest.Revision?
    /// `DetectHumanHandPoseRequest.maximumHandCount`; nil: the request's default (2).
    public var maximumHandCount: Int?
    /// True: include per-request timings (`timingsMs`, with `decode`) in the report.
    public var includeTimings = false

    /// One run's report, and each kind's outcome (for callers that draw overlays or write maps).
    public struct Run: Sendable {
        public var report: AnalysisReport
        public var outcomes: [(kind: RequestKind, outcome: VisionRequestOutcome)]
    }

    /// An analysis of `kinds`; a sequence kind (flow, registration, …) is `invalidArgument`.
    public init(kinds: [RequestKind]) throws(VisionError) {
        try RequestKind.validateStill(kinds)
        self.kinds = kinds
    }

    /// One request per kind, configured as `analyze` configures them.
    public func makeRequests() -> [any VisionRequest] {
        kinds.map { kind -> any VisionRequest in
            switch kind {
            case .rectangles:
                var r = DetectRectanglesRequest()
                r.maximumObservations = maximumRectangles
                return r
            case .text:
                var r = RecognizeTextRequest()
                if let recognitionLanguages { r.recognitionLanguages = recognitionLanguages }
                r.recognitionLevel = recognitionLevel
                return r
            case .faces:
                return DetectFaceRectanglesRequest(faceRevision)
            case .handpose:
                var r = DetectHumanHandPoseRequest()
                if let maximumHandCount { r.maximumHandCount = maximumHandCount }
                return r
            default: return kind.defaultRequest
            }
        }
    }

    /// Decodes the image once (colour when `decodeColor`, e.g. to annotate it afterwards; otherwise
    /// what the requests read), runs every request on `handler` concurrently and reports them under
    /// the name `image`. A decoding error (unreadable, too large, damaged under strict decoding) is
    /// thrown; a request's own failure goes into the report's `errors`.
    public func run(on handler: ImageRequestHandler, image: String, decodeColor: Bool = false) async throws(VisionError) -> Run {
        let clock = ContinuousClock()
        let requests = makeRequests()
        let start = clock.now
        let size: CGSize
        if decodeColor {
            size = try handler.image().size
        } else {
            try handler.decode(for: requests)
            size = try handler.imageSize()
        }
        let decodeTime = clock.now - start
        let outcomes = await handler.performAll(requests)
        var report = AnalysisReport(image: image, width: Int(size.width), height: Int(size.height))
        var times: [String: Double] = ["decode": Self.milliseconds(decodeTime)]
        // Landmark results carry the face boxes too: with both requests, they stand for the faces.
        let facesCovered = kinds.contains(.landmarks)
        for (kind, outcome) in zip(kinds, outcomes) {
            times[kind.rawValue] = Self.milliseconds(outcome.duration)
            if kind == .faces && facesCovered && outcome.error == nil { continue }
            report.add(outcome)
        }
        if includeTimings { report.timingsMs = times }
        let warnings = handler.decoderWarnings()
        report.warnings = warnings.isEmpty ? nil : warnings
        return Run(report: report, outcomes: Array(zip(kinds, outcomes)).map { (kind: $0.0, outcome: $0.1) })
    }

    private static func milliseconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) * 1000 + Double(atto) / 1e15
    }
}

extension AnalysisReport {
    /// The report as the CLI prints it: JSON with sorted keys and unescaped slashes, pretty-printed
    /// (for one image) or on one line.
    public func jsonData(pretty: Bool) throws(VisionError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch {
            throw VisionError(.internalError, "encoding the report as JSON failed: \(error)")
        }
    }
}
