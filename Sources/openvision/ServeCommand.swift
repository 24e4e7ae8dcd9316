import ArgumentParser
import Foundation
import OpenVision
import OpenVisionHTTP

/// `openvision serve`: the HTTP analysis API (docs/serve.md, docs/openapi.yaml).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the analysis API over HTTP: POST /v1/analyze, /v1/detect, /v1/classify; GET /v1/models, /healthz, /readyz, /metrics, /openapi.yaml.",
        discussion: """
        Listens on loopback by default. Images go as the raw body or multipart/form-data; answers are the
        JSON of `openvision analyze` (docs/json-schema.md). SIGTERM or SIGINT stops accepting, finishes the
        requests in flight and exits. Limits and errors: docs/serve.md.
        """
    )

    @Option(help: "Address to listen on (0.0.0.0 for every interface).") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0 = any free port; the chosen one is printed).") var port = 8080
    @Option(help: "Largest request body in bytes (larger: 413).") var maxBodyBytes = 32 * 1024 * 1024
    @Option(help: "Largest image in pixels (larger: 422 imageTooLarge).") var maxPixels = VisionImage.defaultMaximumPixelCount
    @Option(help: "Analyses running at once (default: the number of cores).") var workers: Int?
    @Option(help: "Requests waiting beyond the workers (more: 503 with Retry-After).") var queue = 32
    @Option(help: "Seconds from a request's arrival to its answer (body not in: 408; analysis not done: 503).") var timeout: Double = 30
    @Option(help: "API key clients send as `Authorization: Bearer KEY` (default: $OPENVISION_API_KEY; none: no auth). /healthz and /readyz stay open.")
    var apiKey: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard maxBodyBytes > 0, maxPixels > 0, queue >= 0, timeout > 0, (workers ?? 1) >= 1 else {
            throw ValidationError("--max-body-bytes, --max-pixels, --timeout and --workers must be positive, --queue ≥ 0")
        }
    }

    func run() async throws {
        var configuration = ServeConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maximumBodyBytes = maxBodyBytes
        configuration.maximumPixelCount = maxPixels
        if let workers { configuration.workers = workers }
        configuration.queueLength = queue
        configuration.requestTimeout = .milliseconds(Int64(timeout * 1000))
        let key = apiKey ?? ProcessInfo.processInfo.environment["OPENVISION_API_KEY"]
        configuration.apiKey = (key?.isEmpty ?? true) ? nil : key
        let server = AnalysisServer(configuration: configuration)
        let host = self.host
        try await server.run { port in
            // One line, flushed at once (stdout is a pipe under tests and supervisors).
            FileHandle.standardOutput.write(Data("openvision serve: listening on http://\(host):\(port)\n".utf8))
        }
    }
}
