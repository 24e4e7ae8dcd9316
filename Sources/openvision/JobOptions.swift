import ArgumentParser
import Foundation
import OpenVision
import OpenVisionJobs

/// What a job analyses besides its input: the `options` JSONB of `openvision_jobs` (docs/jobs.md).
/// Image jobs use `requests`, the built-in requests' options (`RequestOption.all`: `maxRectangles`, `languages`,
/// `recognitionLevel`, `faceRevision`, `faceLandmarksRevision`, `maxHands`, as `openvision analyze`) and `strict`; stream jobs `requests`,
/// `model`, `confidence`, `analysisSize`, `duration` (as `openvision live`).
struct JobOptions: Codable, Sendable {
    var requests: String?
    /// The built-in requests' options, by `RequestOption` name, in their text form (validated at submit).
    var requestOptions: [String: String] = [:]
    var strict: Bool?
    var model: String?
    var confidence: Float?
    var analysisSize: Int?
    /// Stream jobs: stop (succeeded) after this many seconds of analysis; nil runs until the source ends.
    var duration: Double?

    init(requests: String? = nil) { self.requests = requests }

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
        let kinds = try RequestKind.kinds(from: [requests ?? AnalysisJobRunner.defaultRequests])
        return try StillAnalysis(kinds: kinds, options: try RequestOptions(values: requestOptions, base: StillAnalysis.stillDefaults))
    }

    // The request options are top-level keys, integers as JSON numbers (`{"maxRectangles":16,…}`).
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        requests = try c.decodeIfPresent(String.self, forKey: Key("requests"))
        strict = try c.decodeIfPresent(Bool.self, forKey: Key("strict"))
        model = try c.decodeIfPresent(String.self, forKey: Key("model"))
        confidence = try c.decodeIfPresent(Float.self, forKey: Key("confidence"))
        analysisSize = try c.decodeIfPresent(Int.self, forKey: Key("analysisSize"))
        duration = try c.decodeIfPresent(Double.self, forKey: Key("duration"))
        for option in RequestOption.all {
            let key = Key(option.name)
            guard c.contains(key) else { continue }
            if let n = try? c.decode(Int.self, forKey: key) { requestOptions[option.name] = String(n) } else {
                requestOptions[option.name] = try c.decode(String.self, forKey: key)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(requests, forKey: Key("requests"))
        try c.encodeIfPresent(strict, forKey: Key("strict"))
        try c.encodeIfPresent(model, forKey: Key("model"))
        try c.encodeIfPresent(confidence, forKey: Key("confidence"))
        try c.encodeIfPresent(analysisSize, forKey: Key("analysisSize"))
        try c.encodeIfPresent(duration, forKey: Key("duration"))
        for (name, value) in requestOptions {
            if RequestOption.named(name)?.schemaType == "integer", let n = Int(value) { try c.encode(n, forKey: Key(name)) } else {
                try c.encode(value, forKey: Key(name))
            }
        }
    }
}

/// `--db URL`, or `$OPENVISION_DB` when the option is absent.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("PostgreSQL URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or postgres:///DATABASE?host=/socket/dir (default: $OPENVISION_DB).", valueName: "url"))
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
