import ArgumentParser
import Foundation
import OpenVision
import OpenVisionJobs

/// What a job analyses besides its input: the `options` JSONB of `openvision_jobs` (docs/jobs.md), typed and Codable.
/// Every job takes `requests` (comma-separated kind names) and the request kinds' options (`RequestOptions`, each
/// under its own name as a top-level key: `maxRectangles`, `symbologies`, `model`, `confidence`, …, as the CLI's flags
/// and the HTTP query parameters); image jobs also `strict` (as `openvision analyze`), stream jobs `analysisSize` and
/// `duration` (as `openvision live`).
struct JobOptions: Codable, Sendable, Equatable {
    var requests: String?
    /// The request kinds' options, checked against their declarations (at submit, and when the worker reads them).
    var options = RequestOptions()
    var strict: Bool?
    var analysisSize: Int?
    /// Stream jobs: stop (succeeded) after this many seconds of analysis; nil runs until the source ends.
    var duration: Double?

    init(requests: String? = nil, options: RequestOptions = RequestOptions()) {
        self.requests = requests
        self.options = options
    }

    init(json: String) throws {
        self = try JSONDecoder().decode(JobOptions.self, from: Data(json.utf8))
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An image job's analysis, with the same rules `openvision analyze` applies (`invalidArgument` otherwise):
    /// what `jobs submit` checks and what the worker runs.
    func stillAnalysis() throws(VisionError) -> StillAnalysis {
        let kinds =
            try requests.map { names throws(VisionError) in try RequestKind.kinds(from: [names]) }
            ?? RequestKind.stillDefaults
        return try StillAnalysis(kinds: kinds, options: StillAnalysis.stillDefaults.merging(options))
    }

    /// A stream job's request kinds, as `openvision live` picks them (`AnalysisOptions.kinds`).
    func streamKinds() throws(VisionError) -> [RequestKind] {
        try AnalysisOptions.kinds(requests, detector: options.modelName != nil)
    }

    private enum Key: String, CodingKey { case requests, strict, analysisSize, duration }

    /// The job's own keys, and the request options beside them in the same object.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        requests = try c.decodeIfPresent(String.self, forKey: .requests)
        strict = try c.decodeIfPresent(Bool.self, forKey: .strict)
        analysisSize = try c.decodeIfPresent(Int.self, forKey: .analysisSize)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        options = try RequestOptions(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(requests, forKey: .requests)
        try c.encodeIfPresent(strict, forKey: .strict)
        try c.encodeIfPresent(analysisSize, forKey: .analysisSize)
        try c.encodeIfPresent(duration, forKey: .duration)
        try options.encode(to: encoder)
    }
}

/// `--db URL`, or `$OPENVISION_DB` when the option is absent.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "PostgreSQL URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or postgres:///DATABASE?host=/socket/dir (default: $OPENVISION_DB).",
            valueName: "url"))
    var db: String?

    func url() throws -> DatabaseURL {
        guard let text = db ?? ProcessInfo.processInfo.environment["OPENVISION_DB"] else {
            throw ValidationError("give --db postgres://… or set OPENVISION_DB")
        }
        do { return try DatabaseURL(text) } catch let error as JobsError { throw ValidationError(error.message) }
    }

    /// Connects and migrates the schema; a database that cannot be reached is a one-line error and exit 1.
    func open() async throws -> JobStore {
        let url = try url()
        do {
            let store = try await JobStore.connect(url)
            try await store.migrate()
            return store
        } catch let error as JobsError {
            JobsCommand.fail(error)
        }
    }
}
