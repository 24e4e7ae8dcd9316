import Foundation

/// What `openvision analyze`, `openvision serve`'s `POST /v1/analyze` and `openvision worker`'s image jobs run on
/// one still image: request kinds (`RequestKind`), built from one `RequestOptions`, performed concurrently on one
/// `ImageRequestHandler` (one decode shared by all of them) and reported as one `AnalysisReport`
/// (docs/json-schema.md).
public struct StillAnalysis: Sendable {
    /// The requests to run, in report order; no sequence kinds (see `RequestKind.validateStill`).
    public let kinds: [RequestKind]
    /// The requests' options (`RequestOption.all`); `stillDefaults` unless given.
    public var options: RequestOptions
    /// True: include per-request timings (`timingsMs`, with `decode`) in the report.
    public var includeTimings = false
    /// The models its model requests run, by kind name (`loadModels(with:)`); a model request without one runs its
    /// default model.
    public private(set) var models: [String: VisionModel] = [:]

    /// The options a still analysis starts from: the requests' own defaults, but up to 16 rectangles (Vision's
    /// default of one suits tracking a single document better than analysing a photo).
    public static var stillDefaults: RequestOptions {
        var options = RequestOptions()
        // A declared value: it cannot be refused.
        try? options.set(.maxRectangles, to: .integer(16))
        return options
    }

    /// One run's report, what to draw, and each kind's outcome (of `runKinds`).
    public struct Run: Sendable {
        /// The run's report: every kind's results and errors, relative to the full image.
        public var report: AnalysisReport
        /// The results' overlays in full-image coordinates (`annotated(with:)`), in report order.
        public var overlayItems: [OverlayItem]
        /// Each kind that ran, with its outcome (results or error), in run order.
        public var outcomes: [(kind: RequestKind, outcome: VisionRequestOutcome)]
    }

    /// An analysis of `kinds`; a sequence kind (flow, registration, …), or a model request that needs a model and is
    /// given none, is `invalidArgument`.
    public init(kinds: [RequestKind], options: RequestOptions = StillAnalysis.stillDefaults) throws(VisionError) {
        try RequestKind.validateStill(kinds)
        if options.modelName == nil, let kind = kinds.first(where: { $0.defaultModel == .required }) {
            throw VisionError(.invalidArgument, "'\(kind.name)' runs a model of yours: give one (model)")
        }
        self.kinds = kinds
        self.options = options
    }

    /// The kinds that run: `kinds` without those another of them stands in for (`faces` when `landmarks` is asked too:
    /// the landmark request finds the same faces with the same detector and reports them under `faces`).
    public var runKinds: [RequestKind] { RequestKind.running(kinds) }

    /// Loads the models its model requests run (`RequestKind.model(for:loader:)`), once: call it before `run`.
    public mutating func loadModels(with loader: any ModelLoader) async throws(VisionError) {
        for kind in runKinds where kind.isModelRequest && models[kind.name] == nil {
            if let model = try await kind.model(for: options, loader: loader) { models[kind.name] = model }
        }
    }

    /// One request per kind that runs, built from `options` with the loaded models.
    public func makeRequests() throws(VisionError) -> [any VisionRequest] {
        try runKinds.map { kind throws(VisionError) in try kind.makeRequest(options, model: models[kind.name]) }
    }

    /// Decodes the image once, off the caller's thread (colour when `decodeColor`, e.g. to annotate it afterwards;
    /// otherwise what the requests read), runs every request on `handler` concurrently and reports them under the
    /// name `image`; `maps`, when given, writes the image-valued results (`--maps`). A decoding error (unreadable,
    /// too large, damaged under strict decoding) is thrown; a request's own failure goes into the report's `errors`,
    /// under its kind's name.
    public func run(
        on handler: ImageRequestHandler, image: String, decodeColor: Bool = false,
        maps: (any MapOutput)? = nil
    ) async throws(VisionError) -> Run {
        let clock = ContinuousClock()
        let requests = try makeRequests()
        let start = clock.now
        // Off the cooperative pool: a decode (or a model load sizing its input) blocks its thread.
        if decodeColor { _ = try await handler.colorImage() } else { try await handler.prepare(for: requests) }
        let decodeTime = clock.now - start
        let outcomes = await handler.performAll(requests)
        var report = try AnalysisReport(image: image, handler: handler)
        var overlay: [OverlayItem] = []
        var times: [String: Double] = ["decode": decodeTime.milliseconds]
        let ran = runKinds
        for (kind, outcome) in zip(ran, outcomes) {
            times[kind.name] = outcome.duration.milliseconds
            if let maps {
                try report.add(outcome, name: kind.name, writingMapsTo: maps)
            } else {
                report.add(outcome, name: kind.name)
            }
            overlay += OverlayItem.items(for: outcome)
        }
        if includeTimings { report.timingsMs = times }
        return Run(
            report: report, overlayItems: overlay,
            outcomes: Array(zip(ran, outcomes)).map { (kind: $0.0, outcome: $0.1) })
    }
}
