import ArgumentParser
import Foundation
import OpenVision
import OpenVisionAPI

/// `openvision serve`: the HTTP analysis API (docs/serve.md, docs/openapi.yaml).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve the analysis API over HTTP: POST /v1/analyze, /v1/detect, /v1/classify; GET /v1/models, /healthz, /readyz, /metrics, /openapi.yaml.",
        discussion: """
            Listens on loopback by default. Images go as the raw body or multipart/form-data; answers are the
            JSON of `openvision analyze` (docs/json-schema.md). SIGTERM or SIGINT stops accepting, finishes the
            requests in flight and exits. Limits and errors: docs/serve.md.
            """
    )

    @Option(help: "Address to listen on (0.0.0.0 for every interface).") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 = any free port; the chosen one is printed).") var port = 8080
    @Option(help: "Largest request body in bytes (larger: 413).") var maxBodyBytes = 32 * 1024 * 1024
    @Option(help: "Largest image in pixels (larger: 422 imageTooLarge).") var maxPixels = VisionImage
        .defaultMaximumPixelCount
    @Option(
        help: "MiB of working memory one request may take (images needing more for their requests: 422 imageTooLarge).")
    var maxRequestMemory = 2048
    @Option(help: "Analyses running at once (default: the number of cores).") var workers: Int?
    @Option(help: "Requests waiting beyond the workers (more: 503 with Retry-After).") var queue = 32
    @Option(help: "Seconds from a request's arrival to its answer (body not in: 408; analysis not done: 503).")
    var timeout: Double = 30
    @Option(help: "Connections open at once (at the limit a new one evicts an idle one; 503 when all are busy).")
    var maxConnections = 256
    @Option(help: "Seconds a connection has to send a whole request head (slower: closed).") var headerTimeout: Double =
        10
    @Option(
        help:
            "API key clients send as `Authorization: Bearer KEY` (default: $OPENVISION_API_KEY; none: no auth). /healthz and /readyz stay open."
    )
    var apiKey: String?

    /// The largest accepted values: a day for --timeout (Duration arithmetic stays finite), 1024 workers and
    /// 100,000 queue places, a million connections (limits that cannot overflow the admission count, and past any machine's use).
    static let maximumTimeout: Double = 86_400
    static let maximumWorkers = 1024
    static let maximumQueue = 100_000
    /// 1 TiB, in MiB.
    static let maximumRequestMemory = 1 << 20
    /// Far above a process's usual descriptor limit (`ulimit -n`), which is the real bound.
    static let maximumConnections = 1_000_000

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard maxBodyBytes > 0, maxBodyBytes <= Int(Int32.max) else {
            throw ValidationError("--max-body-bytes must be in 1...\(Int32.max)")
        }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        guard (16...Self.maximumRequestMemory).contains(maxRequestMemory) else {
            throw ValidationError("--max-request-memory must be in 16...\(Self.maximumRequestMemory) (MiB)")
        }
        guard timeout.isFinite, timeout > 0, timeout <= Self.maximumTimeout else {
            throw ValidationError(
                "--timeout must be a number of seconds greater than 0 and at most \(Int(Self.maximumTimeout))")
        }
        guard (1...Self.maximumWorkers).contains(workers ?? 1) else {
            throw ValidationError("--workers must be in 1...\(Self.maximumWorkers)")
        }
        guard (0...Self.maximumQueue).contains(queue) else {
            throw ValidationError("--queue must be in 0...\(Self.maximumQueue)")
        }
        guard (1...Self.maximumConnections).contains(maxConnections) else {
            throw ValidationError("--max-connections must be in 1...\(Self.maximumConnections)")
        }
        guard headerTimeout.isFinite, headerTimeout > 0, headerTimeout <= Self.maximumTimeout else {
            throw ValidationError(
                "--header-timeout must be a number of seconds greater than 0 and at most \(Int(Self.maximumTimeout))")
        }
        if let apiKey, apiKey.isEmpty {
            throw ValidationError("--api-key must not be empty (leave it out to serve without a key)")
        }
    }

    func run() async throws {
        var configuration = ServeConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maximumBodyBytes = maxBodyBytes
        configuration.maximumPixelCount = maxPixels
        configuration.maximumRequestMemory = maxRequestMemory << 20
        if let workers { configuration.workers = workers }
        configuration.queueLength = queue
        configuration.requestTimeout = .milliseconds(Int64(timeout * 1000))
        configuration.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        configuration.maximumConnections = maxConnections
        let environmentKey = ProcessInfo.processInfo.environment["OPENVISION_API_KEY"]
        if apiKey == nil, environmentKey?.isEmpty == true {
            FileHandle.standardError.write(
                Data(
                    "openvision serve: warning: OPENVISION_API_KEY is set but empty: serving WITHOUT an API key\n".utf8)
            )
        }
        let key = apiKey ?? environmentKey
        configuration.apiKey = (key?.isEmpty ?? true) ? nil : key
        let server = AnalysisServer(configuration: configuration)
        let host = self.host
        try await server.run { port in
            // One line, flushed at once (stdout is a pipe under tests and supervisors).
            FileHandle.standardOutput.write(Data("openvision serve: listening on http://\(host):\(port)\n".utf8))
        }
    }
}
