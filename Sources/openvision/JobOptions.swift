import ArgumentParser
import Foundation
import OpenVisionJobs

/// What a job analyses besides its input: the `options` JSONB of `openvision_jobs` (docs/jobs.md).
/// Image jobs use `requests`, `maxRectangles`, `languages`, `strict` (as `openvision analyze`);
/// stream jobs `requests`, `model`, `confidence`, `analysisSize`, `duration` (as `openvision live`).
struct JobOptions: Codable, Sendable {
    var requests: String?
    var maxRectangles: Int?
    var languages: String?
    var strict: Bool?
    var model: String?
    var confidence: Float?
    var analysisSize: Int?
    /// Stream jobs: stop (succeeded) after this many seconds of analysis; nil runs until the source ends.
    var duration: Double?

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    init(requests: String? = nil) { self.requests = requests }

    init(json: String) throws {
        self = try JSONDecoder().decode(JobOptions.self, from: Data(json.utf8))
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
