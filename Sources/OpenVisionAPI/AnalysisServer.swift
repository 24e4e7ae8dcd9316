import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenVision
import OpenVisionNetworking
import ServiceLifecycle
import Synchronization

/// `openvision serve`: the HTTP analysis API (Hummingbird 2), documented in docs/serve.md and
/// described by the OpenAPI document it serves at `GET /openapi.yaml` (docs/openapi.yaml).
///
/// - `POST /v1/analyze?requests=faces,barcodes,…`: the image as the raw body or multipart → the JSON of
///   `openvision analyze` for one image (docs/json-schema.md); all requested kinds run on one
///   `ImageRequestHandler` (one decode).
/// - `POST /v1/detect?model=NAME` and `POST /v1/classify[?model=NAME]`: models from the model search path,
///   loaded once and shared. `GET /v1/models` lists them.
/// - `GET /healthz`, `GET /readyz`, `GET /metrics` (Prometheus text), `GET /openapi.yaml`.
///
/// Errors are `{"error": {"code", "message"}}` (see `APIError`). `run()` returns after SIGTERM or
/// SIGINT once in-flight requests are answered (swift-service-lifecycle's graceful shutdown).
public final class AnalysisServer: Sendable {
    /// The options the server runs with (address, limits, models, API key).
    public let configuration: ServeConfiguration
    let metrics = ServerMetrics()
    let queue: WorkQueue
    let models: ModelStore
    let connections: ConnectionGuard
    private let ready = Mutex(false)

    /// A server for `configuration`; nothing is bound before `run()`.
    public init(configuration: ServeConfiguration) {
        self.configuration = configuration
        self.connections = ConnectionGuard(
            maximumConnections: configuration.maximumConnections,
            headerTimeout: Self.timeAmount(configuration.headerTimeout))
        self.queue = WorkQueue(workers: configuration.workers, queueLength: configuration.queueLength, metrics: metrics)
        self.models = ModelStore(metrics: metrics)
    }

    /// Serves until SIGTERM/SIGINT, then stops accepting, finishes the requests in flight and returns.
    /// `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "openvision.serve")
        logger.logLevel =
            ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .warning
        let limit = configuration.maximumBodyBytes
        let app = Application(
            router: makeRouter(),
            server: .guardedHTTP1(
                configuration: .init(
                    additionalChannelHandlers: [ExpectContinueHandler(limit: limit)],
                    idleTimeout: Self.timeAmount(configuration.idleTimeout)),
                connections: connections),
            // The guard admits or refuses every accepted connection; this cap only bounds the sockets
            // still closing (evicted or refused) on top of them.
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "openvision",
                availableConnectionsDelegate: MaximumAvailableConnections(connections.maximumConnections + 64)),
            onServerRunning: { channel in
                self.ready.withLock { $0 = true }
                await onListening(channel.localAddress?.port ?? 0)
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    // MARK: Routes

    /// One route: a method, a path and its handler.
    private struct Route {
        var method: HTTPRequest.Method
        var path: String
        var handler: @Sendable (Request, ServeContext) async throws -> Response
    }

    private var routes: [Route] {
        [
            Route(method: .get, path: "/healthz") { _, _ in Self.json(["status": "ok"]) },
            Route(method: .get, path: "/readyz") { _, _ in
                self.ready.withLock { $0 }
                    ? Self.json(["status": "ready"]) : Self.error(APIError(.serviceUnavailable, "notReady", "starting"))
            },
            Route(method: .get, path: "/metrics") { request, context in
                await self.endpoint("/metrics", request, context) { _ throws(APIError) in
                    var response = Response(
                        status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: self.metrics.exposition())))
                    response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                    return response
                }
            },
            Route(method: .get, path: "/openapi.yaml") { request, context in
                await self.endpoint("/openapi.yaml", request, context) { _ throws(APIError) in
                    var response = Response(
                        status: .ok, body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
                    response.headers[.contentType] = "application/yaml"
                    return response
                }
            },
            Route(method: .get, path: "/v1/models") { request, context in
                await self.endpoint("/v1/models", request, context) { _ throws(APIError) in
                    struct Listing: Encodable { var models: [ModelStore.Entry] }
                    return Self.json(Listing(models: await self.models.list()))
                }
            },
            Route(method: .post, path: "/v1/analyze") { request, context in
                await self.endpoint("/v1/analyze", request, context, admitted: true) { deadline throws(APIError) in
                    try await self.analyze(request, context: context, deadline: deadline)
                }
            },
            Route(method: .post, path: "/v1/detect") { request, context in
                await self.endpoint("/v1/detect", request, context, admitted: true) { deadline throws(APIError) in
                    try await self.runKind(
                        "detect", requiringModel: true, request, context: context, deadline: deadline)
                }
            },
            Route(method: .post, path: "/v1/classify") { request, context in
                await self.endpoint("/v1/classify", request, context, admitted: true) { deadline throws(APIError) in
                    try await self.runKind(
                        "classify", requiringModel: false, request, context: context, deadline: deadline)
                }
            },
        ]
    }

    /// The methods each path answers: its routes' methods, and HEAD with GET (Hummingbird's generated HEAD endpoints).
    var allowedMethods: [String: [HTTPRequest.Method]] {
        routes.reduce(into: [:]) { table, route in
            table[route.path, default: []] += route.method == .get ? [.get, .head] : [route.method]
        }
    }

    func makeRouter() -> Router<ServeContext> {
        let router = Router(context: ServeContext.self, options: .autoGenerateHeadEndpoints)
        // Middleware applies to the routes added after it, and to requests no route takes.
        router.add(middleware: RouteErrorMiddleware(methods: allowedMethods))
        router.add(middleware: BrowserGuardMiddleware(checkHost: HostHeader.isLoopbackBind(configuration.host)))
        for route in routes {
            router.on(RouterPath(route.path), method: route.method, use: route.handler)
        }
        return router
    }

    /// The most pixels an image may have for `work`: `--max-pixels`, or less to keep the request's
    /// working memory within `--max-request-memory` (`RequestMemory`).
    private func pixelLimit(for kinds: [RequestKind]) -> Int {
        min(
            configuration.maximumPixelCount,
            RequestMemory(bytes: configuration.maximumRequestMemory).pixelLimit(for: kinds))
    }

    /// The configured request timeout, at most a day (an instant past that could overflow).
    private var requestTimeout: Duration { min(configuration.requestTimeout, .seconds(86_400)) }

    /// Every endpoint but the health checks: the API key, admission (bounded queue) for the analysing
    /// ones, the answer as JSON errors, and the request metrics.
    private func endpoint(
        _ name: String, _ request: Request, _ context: ServeContext, admitted: Bool = false,
        _ body: (ContinuousClock.Instant) async throws(APIError) -> Response
    ) async -> Response {
        let start = ContinuousClock.now
        var response: Response
        do throws(APIError) {
            try authorize(request)
            if admitted {
                guard queue.admit() else {
                    metrics.rejected(reason: "queueFull")
                    throw APIError(
                        .serviceUnavailable, "queueFull",
                        "all \(queue.workers) workers are busy and \(queue.queueLength) requests are waiting; retry later",
                        headers: [.retryAfter: String(configuration.retryAfterSeconds)], closeConnection: true)
                }
                defer { queue.leave() }
                response = try await body(start + requestTimeout)
            } else {
                response = try await body(start + requestTimeout)
            }
        } catch {
            if error.closeConnection {
                // The body was not read to its end: answer, then close rather than read the rest.
                let channel = context.channel
                channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
            }
            if error.status == .contentTooLarge { metrics.rejected(reason: "payloadTooLarge") }
            if error.status == .unauthorized { metrics.rejected(reason: "unauthorized") }
            if error.code == "timeout" || error.code == "requestTimeout" { metrics.rejected(reason: error.code) }
            response = Self.error(error)
        }
        metrics.answered(endpoint: name, status: response.status.code, after: ContinuousClock.now - start)
        return response
    }

    private func authorize(_ request: Request) throws(APIError) {
        guard let key = configuration.apiKey else { return }
        guard Self.bearerCredentials(request.headers[.authorization]).map({ Self.constantTimeEqual($0, key) }) == true
        else {
            throw APIError(
                .unauthorized, "unauthorized", "a valid API key is required: Authorization: Bearer <key>",
                headers: [.wwwAuthenticate: "Bearer"])
        }
    }

    /// The credentials of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110 §11.1),
    /// separated from the token by spaces. Nil for any other scheme or form.
    static func bearerCredentials(_ header: String?) -> String? {
        guard let header else { return nil }
        let value = header.trimmingCharacters(in: .whitespaces)
        guard let space = value.firstIndex(where: { $0 == " " || $0 == "\t" }),
            value[..<space].lowercased() == "bearer"
        else { return nil }
        let token = value[space...].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Byte-wise equality in time that depends only on the lengths (every byte is compared).
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var diff = a.count == b.count ? 0 : 1
        for i in 0..<min(a.count, b.count) { diff |= Int(a[i] ^ b[i]) }
        return diff == 0
    }

    // MARK: Endpoints

    private func analyze(_ request: Request, context: ServeContext, deadline: ContinuousClock.Instant)
        async throws(APIError) -> Response
    {
        let query = request.uri.queryParameters
        let options = try Self.requestOptions(query, reading: RequestOption.all)
        var analysis: StillAnalysis
        do {
            let kinds =
                try query["requests"].map { names throws(VisionError) in try RequestKind.kinds(from: [String(names)]) }
                ?? RequestKind.stillDefaults
            analysis = try StillAnalysis(kinds: kinds, options: StillAnalysis.stillDefaults.merging(options))
        } catch {
            throw Self.refusal(error, options: options)
        }
        analysis.includeTimings = try Self.flag(query["timings"], "timings")
        do { try await analysis.loadModels(with: models) } catch { throw APIError(loading: error) }
        let upload = try await UploadReader(limit: configuration.maximumBodyBytes, deadline: deadline).read(request)
        let pixels = pixelLimit(for: analysis.runKinds)
        let handler = ImageRequestHandler(data: upload.data, maximumPixelCount: pixels)
        let fixed = analysis
        let maps: InlineMaps? = try Self.flag(query["maps"], "maps") ? InlineMaps() : nil
        let run = try await onWorker(deadline: deadline, pixelLimit: pixels) { () async throws(VisionError) in
            try await fixed.run(on: handler, image: upload.filename ?? "upload", maps: maps)
        }
        for (kind, outcome) in run.outcomes { metrics.ran(request: kind.name, for: outcome.duration) }
        Self.logDecoderWarnings(run.report, context: context)
        return try Self.json(report: run.report)
    }

    /// `POST /v1/detect` and `/v1/classify`: the one model request kind `name` on the uploaded image, with the query
    /// parameters the kind reads (`RequestKind.options`; others are ignored), and its error as the answer's.
    private func runKind(
        _ name: String, requiringModel: Bool, _ request: Request, context: ServeContext,
        deadline: ContinuousClock.Instant
    ) async throws(APIError) -> Response {
        guard let kind = RequestKind.named(name) else {
            throw APIError(.internalServerError, "internalError", "no kind \(name)")
        }
        let query = request.uri.queryParameters
        let options = try Self.requestOptions(query, reading: kind.options)
        if requiringModel && options.modelName?.isEmpty != false {
            throw APIError(
                .badRequest, "badRequest", "the model query parameter is required (GET /v1/models lists the models)")
        }
        let vision: any VisionRequest
        do {
            vision = try kind.makeRequest(options, model: try await kind.model(for: options, loader: models))
        } catch {
            throw error.cause is APIError ? APIError(loading: error) : Self.refusal(error, options: options)
        }
        let upload = try await UploadReader(limit: configuration.maximumBodyBytes, deadline: deadline).read(request)
        let pixels = pixelLimit(for: [kind])
        let handler = ImageRequestHandler(data: upload.data, maximumPixelCount: pixels)
        let (report, duration) = try await onWorker(deadline: deadline, pixelLimit: pixels) {
            () async throws(VisionError) in
            guard let outcome = await handler.performAll([vision]).first else {
                throw VisionError(.internalError, "\(name) did not run")
            }
            if let error = outcome.error { throw error }
            var report = try AnalysisReport(image: upload.filename ?? "upload", handler: handler)
            report.add(outcome)
            return (report, outcome.duration)
        }
        metrics.ran(request: kind.name, for: duration)
        Self.logDecoderWarnings(report, context: context)
        return try Self.json(report: report)
    }

    /// The request options among `options` that the query gives (each query parameter named as its option), checked
    /// as they declare. An option that sets how models are loaded is the server's, not a client's: 400.
    private static func requestOptions(_ query: Parameters, reading options: [RequestOption]) throws(APIError)
        -> RequestOptions
    {
        var values = RequestOptions()
        for option in options {
            guard let text = query[Substring(option.name)] else { continue }
            guard option.isRemote else {
                throw APIError(
                    .badRequest, "invalidArgument",
                    "query parameter \(option.name) is not taken: the server loads its "
                        + "models (`openvision serve` runs them as its command line configures)")
            }
            do { try values.set(option, to: .text(String(text))) } catch { throw refusal(error, options: values) }
        }
        return values
    }

    /// A library refusal of the query as the answer, naming the query parameter when an option's value is at fault.
    private static func refusal(_ error: VisionError, options: RequestOptions) -> APIError {
        var refusal = APIError(error)
        if RequestOption.all.contains(where: { error.message.hasPrefix("\($0.name)=") }) {
            refusal.message = "query parameter " + error.message
        }
        return refusal
    }

    /// The image decoder's warnings (a damaged JPEG, libpng's complaints), which the response carries in
    /// `warnings`, also in the server's structured log (notice, with the request's metadata); the decoders never
    /// print to stderr.
    private static func logDecoderWarnings(_ report: AnalysisReport, context: ServeContext) {
        guard let warnings = report.warnings, !warnings.isEmpty else { return }
        context.logger.notice(
            "image decoder warnings",
            metadata: [
                "image": .string(report.image),
                "warnings": .array(warnings.map { .string($0) }),
            ])
    }

    // MARK: Helpers

    /// Runs `body` on a worker (waiting in the bounded queue), answering `timeout` (503) at `deadline`
    /// if it has not finished. At the deadline the work is cancelled: a request still waiting for a
    /// worker leaves the line, and an analysis under way starts none of its requests that have not
    /// started; native work already running cannot be interrupted and finishes on its worker, which
    /// stays taken until then, so the number of analyses never exceeds the workers.
    /// `pixelLimit`: the image limit the handler was given; an image refused by it below `--max-pixels` is
    /// refused for the memory budget, and the answer says so.
    private func onWorker<T: Sendable>(
        deadline: ContinuousClock.Instant, pixelLimit: Int,
        _ body: @escaping @Sendable () async throws(VisionError) -> T
    ) async throws(APIError) -> T {
        let queue = self.queue
        let outcome: Result<T, VisionError>?? = await Self.first(deadline: deadline) {
            await queue.run { () async -> Result<T, VisionError> in
                do throws(VisionError) { return .success(try await body()) } catch { return .failure(error) }
            }
        }
        switch outcome {
        case .some(.some(.success(let value))): return value
        case .some(.some(.failure(let error))):
            var refusal = APIError(error)
            if error.code == .imageTooLarge, pixelLimit < configuration.maximumPixelCount {
                refusal.message +=
                    "; these requests take at most \(pixelLimit) pixels within the server's "
                    + "\(configuration.maximumRequestMemory >> 20) MiB of working memory per request (--max-request-memory)"
            }
            throw refusal
        case .some(.none), .none:
            throw APIError(
                .serviceUnavailable, "timeout", "the analysis did not finish within the request timeout",
                headers: [.retryAfter: String(configuration.retryAfterSeconds)])
        }
    }

    /// `work`'s value, or nil if `deadline` comes first; `work` is then cancelled (and goes on, unobserved,
    /// as far as it does not check for cancellation).
    private static func first<T: Sendable>(deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async -> T)
        async -> T?
    {
        let slot = Mutex<CheckedContinuation<T?, Never>?>(nil)
        let resume: @Sendable (T?) -> Bool = { value in
            guard let continuation = slot.withLock({ c in c.take() }) else { return false }
            continuation.resume(returning: value)
            return true
        }
        let timer = Mutex<Task<Void, Never>?>(nil)
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            slot.withLock { $0 = continuation }
            let worker = Task { _ = resume(await work()) }
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if resume(nil) { worker.cancel() }
                }
            }
        }
        timer.withLock { $0 }?.cancel()
        return value
    }

    private static func flag(_ value: Substring?, _ name: String) throws(APIError) -> Bool {
        switch value?.lowercased() {
        case nil, "false", "0": return false
        case "true", "1", "": return true
        default:
            throw APIError(
                .badRequest, "invalidArgument", "query parameter \(name)='\(value ?? "")' must be true or false")
        }
    }

    static func json(report: AnalysisReport) throws(APIError) -> Response {
        do {
            return json(data: try report.jsonData(pretty: false))
        } catch {
            throw APIError(error)
        }
    }

    static func json<T: Encodable>(_ value: T) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(data: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    static func json(data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        response.headers[.contentType] = "application/json"
        return response
    }

    static func error(_ error: APIError) -> Response {
        var response = json(data: error.json, status: error.status)
        for field in error.headers { response.headers.append(field) }
        if error.closeConnection { response.headers[.connection] = "close" }
        return response
    }

    /// `d` as NIO's TimeAmount, at most a day (larger values would overflow its nanoseconds).
    static func timeAmount(_ d: Duration) -> TimeAmount {
        let (seconds, attoseconds) = min(max(d, .zero), .seconds(86_400)).components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// The request context: Hummingbird's core context plus the connection, so that a request whose
/// body was refused part-way can close it.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
