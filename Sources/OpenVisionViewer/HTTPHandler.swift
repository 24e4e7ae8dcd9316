import Foundation
import NIOCore
import NIOHTTP1
import OpenVisionNetworking

/// Sent to every connection's pipeline by ``LiveViewerServer/stop()``: `/events` clients get a
/// final `status` event before their connection closes; every other connection closes at once.
struct ViewerShutdown: Sendable {}

/// One connection's HTTP handler. Plain responses carry a Content-Length (the pipeline's
/// automatic framing is off); the two streams are delimited by connection close, so the
/// MJPEG and SSE bytes go to the client exactly as written, with no chunked encoding.
///
/// Contracts (limits from ``LiveViewerServer/Configuration``):
/// - Backpressure: a request is answered only while the channel is writable and fewer than
///   `maxQueuedResponses` responses await the socket; otherwise it waits, and since
///   `HTTPServerPipelineHandler` delivers one request at a time and stops reading while a
///   response is pending, a client that does not read stops being read. Memory per connection
///   is bounded by the high-water mark plus one response, however many requests it pipelines.
/// - Pipelined requests are answered one per event-loop tick (bounded stack, fair to others).
/// - Timeouts: a complete request head within `headerTimeout` of connecting or of the first
///   byte of the next request; `idleTimeout` between keep-alive requests (streams exempt);
///   `writeStallTimeout` for any queued write, streams included. Past any, the connection closes.
final class ViewerHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Where the connection is in its request/response cycle, for the timeouts.
    private enum Phase {
        /// Waiting for a complete request head since the given time.
        case awaitingHead(since: NIODeadline)
        /// Keep-alive, no request in progress, since the given time.
        case idle(since: NIODeadline)
        /// A request is being answered (or waits for the client to read earlier answers).
        case busy
        /// The connection carries a stream until it closes.
        case streaming
    }

    private let hub: Hub
    private let checkHost: Bool
    private let configuration: LiveViewerServer.Configuration
    private let connectionID: Int
    private var context: ChannelHandlerContext?
    private var requestHead: HTTPRequestHead?
    /// The body of the request being read (only `/anchors` reads it), at most `maxBodySize` bytes.
    private var requestBody: [UInt8] = []
    private var requestBodyTooLarge = false
    /// Request bodies larger than this are refused (413) without being kept.
    static let maxBodySize = 16 * 1024
    /// A complete request not answered yet (at most one: the pipelining handler holds the rest), and its body.
    private var pending: HTTPRequestHead?
    private var pendingBody: [UInt8] = []
    private var pendingBodyTooLarge = false
    private var responding = false
    private var resumeScheduled = false
    private var deferralRecorded = false
    private var queuedResponses = 0
    private var phase: Phase = .awaitingHead(since: .now())
    private var lastWriteProgress: NIODeadline = .now()
    private var watchdog: RepeatedTask?
    private var sink: ClientSink?
    private var writeInFlight = false
    private var shuttingDown = false

    init(hub: Hub, checkHost: Bool, configuration: LiveViewerServer.Configuration, connectionID: Int) {
        self.hub = hub
        self.checkHost = checkHost
        self.configuration = configuration
        self.connectionID = connectionID
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        phase = .awaitingHead(since: .now())
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let interval = configuration.watchdogInterval.timeAmount
        watchdog = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            bound.value.checkTimeouts()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        watchdog?.cancel()
        watchdog = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        watchdog?.cancel()
        watchdog = nil
        sink = nil
        pending = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is RequestBytesArrived:
            if case .idle = phase { phase = .awaitingHead(since: .now()) }
        case is ViewerShutdown:
            shutDown(context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { answerPending() }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A streaming connection answers nothing more: what it sends is dropped.
        guard sink == nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
            requestBody = []
            requestBodyTooLarge = false
            phase = .busy
        case .body(let buffer):
            if requestBody.count + buffer.readableBytes > Self.maxBodySize {
                requestBodyTooLarge = true
                requestBody = []
            } else if !requestBodyTooLarge {
                requestBody += buffer.readableBytesView
            }
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            guard !shuttingDown else { return }
            pending = head
            pendingBody = requestBody
            pendingBodyTooLarge = requestBodyTooLarge
            requestBody = []
            answerPending()
        }
    }

    // MARK: backpressure

    /// Number of writes handed to the channel whose completion has not been seen.
    private var outstandingWrites: Int { queuedResponses + (writeInFlight ? 1 : 0) }

    private func writeStarted() {
        if outstandingWrites == 0 { lastWriteProgress = .now() }
    }

    /// Answers the waiting request if the connection can take more output; otherwise leaves it
    /// for `channelWritabilityChanged` or a write completion to retry.
    private func answerPending() {
        guard let context, !responding, let head = pending else { return }
        guard context.channel.isWritable, queuedResponses < configuration.maxQueuedResponses else {
            if !deferralRecorded {
                deferralRecorded = true
                hub.record { $0.deferredRequests += 1 }
            }
            return
        }
        pending = nil
        let body = pendingBody
        let bodyTooLarge = pendingBodyTooLarge
        pendingBody = []
        deferralRecorded = false
        responding = true
        route(head, body: bodyTooLarge ? nil : body, context: context)
        responding = false
        // The pipelining handler may have handed over the next request while we wrote `.end`:
        // answer it on a later tick, so a long pipeline neither deepens the stack nor starves
        // other connections.
        if pending != nil { scheduleResume(context: context) }
    }

    private func scheduleResume(context: ChannelHandlerContext) {
        guard !resumeScheduled else { return }
        resumeScheduled = true
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            bound.value.resumeScheduled = false
            bound.value.answerPending()
        }
    }

    // MARK: timeouts

    private func checkTimeouts() {
        guard let context, context.channel.isActive else { return }
        let now = NIODeadline.now()
        if outstandingWrites > 0, now - lastWriteProgress > configuration.writeStallTimeout.timeAmount {
            hub.record { $0.writeStalls += 1 }
            context.close(promise: nil)
            return
        }
        switch phase {
        case .awaitingHead(let since) where now - since > configuration.headerTimeout.timeAmount:
            hub.record { $0.headerTimeouts += 1 }
            context.close(promise: nil)
        case .idle(let since)
        where outstandingWrites == 0
            && now - max(since, lastWriteProgress) > configuration.idleTimeout.timeAmount:
            hub.record { $0.idleTimeouts += 1 }
            context.close(promise: nil)
        default:
            break
        }
    }

    // MARK: routing

    /// `body` is nil when it was larger than `maxBodySize`.
    private func route(_ head: HTTPRequestHead, body: [UInt8]?, context: ChannelHandlerContext) {
        let path =
            head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let isAnchors = path == "/anchors" || path.hasPrefix("/anchors/")
        guard head.method == .GET || head.method == .HEAD || isAnchors else {
            respond(
                head, status: .methodNotAllowed, type: "text/plain; charset=utf-8",
                body: Array("method not allowed\n".utf8), extra: [("Allow", "GET, HEAD")], context: context)
            return
        }
        if checkHost, !HostHeader.isLoopback(head.headers.first(name: "host")) {
            // Refuse DNS-rebinding: a page from another site must not read the camera.
            respond(
                head, status: .forbidden, type: "text/plain; charset=utf-8",
                body: Array("forbidden host\n".utf8), context: context)
            return
        }
        if isAnchors {
            routeAnchors(head, path: path, body: body, context: context)
            return
        }
        switch path {
        case "/", "/index.html":
            respond(
                head, status: .ok, type: "text/html; charset=utf-8", body: Array(viewerPageHTML.utf8), context: context)
        case "/health":
            respond(head, status: .ok, type: "text/plain; charset=utf-8", body: Array("ok".utf8), context: context)
        case "/snapshot.jpg":
            if let frame = hub.latestFrame {
                respond(
                    head, status: .ok, type: "image/jpeg", body: frame.jpeg,
                    extra: [("X-Frame-Index", String(frame.index)), ("X-Timestamp", String(frame.timestamp))],
                    context: context)
            } else {
                respond(
                    head, status: .serviceUnavailable, type: "text/plain; charset=utf-8",
                    body: Array("no frame yet\n".utf8), extra: [("Retry-After", "1")], context: context)
            }
        case "/stream.mjpg":
            startStream(.mjpeg, head: head, context: context)
        case "/events":
            startStream(.events, head: head, context: context)
        default:
            respond(
                head, status: .notFound, type: "text/plain; charset=utf-8", body: Array("not found\n".utf8),
                context: context)
        }
    }

    // MARK: anchors

    /// The JSON a client posts to pin a label.
    private struct PinRequest: Decodable {
        var x: Double?
        var y: Double?
        var label: String?
    }

    private func respondJSON(
        _ request: HTTPRequestHead, status: HTTPResponseStatus, _ value: some Encodable,
        extra: [(String, String)] = [], context: ChannelHandlerContext
    ) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        respond(
            request, status: status, type: "application/json", body: [UInt8](data) + [10], extra: extra,
            context: context)
    }

    private func respondError(
        _ request: HTTPRequestHead, status: HTTPResponseStatus, _ message: String,
        extra: [(String, String)] = [], context: ChannelHandlerContext
    ) {
        respondJSON(request, status: status, ["error": message], extra: extra, context: context)
    }

    /// `GET|POST /anchors`, `GET|DELETE /anchors/{id}`.
    private func routeAnchors(_ head: HTTPRequestHead, path: String, body: [UInt8]?, context: ChannelHandlerContext) {
        guard let service = hub.anchorService else {
            respondError(
                head, status: .notFound, "no pinned labels here: run openvision live with --pin-labels",
                context: context)
            return
        }
        let rest = path.dropFirst("/anchors".count)
        guard rest.isEmpty || rest == "/" else {
            let text = rest.dropFirst()
            guard let id = Int(text) else {
                respondError(
                    head, status: .notFound, "no anchor '\(text.prefix(40))': anchor IDs are integers", context: context
                )
                return
            }
            switch head.method {
            case .GET, .HEAD:
                if let anchor = service.listAnchors().first(where: { $0.id == id }) {
                    respondJSON(head, status: .ok, anchor, context: context)
                } else {
                    respondError(head, status: .notFound, "no anchor \(id)", context: context)
                }
            case .DELETE:
                if service.removeAnchor(id: id) {
                    respond(head, status: .noContent, type: "application/json", body: [], context: context)
                } else {
                    respondError(head, status: .notFound, "no anchor \(id)", context: context)
                }
            default:
                respondError(
                    head, status: .methodNotAllowed, "use GET or DELETE on /anchors/{id}",
                    extra: [("Allow", "GET, HEAD, DELETE")], context: context)
            }
            return
        }
        switch head.method {
        case .GET, .HEAD:
            respondJSON(head, status: .ok, ["anchors": service.listAnchors()], context: context)
        case .POST:
            // JSON only: a cross-site form or `text/plain` post cannot pin labels (browsers preflight JSON).
            let type = head.headers.first(name: "content-type")?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                respondError(
                    head, status: .unsupportedMediaType, "send the anchor as Content-Type: application/json",
                    context: context)
                return
            }
            guard let body else {
                respondError(
                    head, status: .payloadTooLarge, "the request body is larger than \(Self.maxBodySize) bytes",
                    context: context)
                return
            }
            switch Self.parsePin(body) {
            case .failure(let error):
                respondError(head, status: .badRequest, error.message, context: context)
            case .success(let pin):
                do {
                    let anchor = try service.addAnchor(x: pin.x, y: pin.y, label: pin.label)
                    respondJSON(
                        head, status: .created, anchor, extra: [("Location", "/anchors/\(anchor.id)")], context: context
                    )
                } catch {
                    respondError(
                        head, status: HTTPResponseStatus(statusCode: error.status), error.message, context: context)
                }
            }
        default:
            respondError(
                head, status: .methodNotAllowed, "use GET or POST on /anchors, DELETE on /anchors/{id}",
                extra: [("Allow", "GET, HEAD, POST")], context: context)
        }
    }

    /// A pin request's point (finite, 0...1, lower-left origin) and optional label (1...200 characters after
    /// trimming), or why it is not one.
    static func parsePin(_ body: [UInt8]) -> Result<(x: Double, y: Double, label: String?), AnchorServiceError> {
        func bad(_ message: String) -> Result<(x: Double, y: Double, label: String?), AnchorServiceError> {
            .failure(AnchorServiceError(status: 400, message: message))
        }
        let request: PinRequest
        do {
            request = try JSONDecoder().decode(PinRequest.self, from: Data(body))
        } catch {
            return bad("the body must be a JSON object {\"x\": number, \"y\": number, \"label\": string (optional)}")
        }
        guard let x = request.x, let y = request.y else {
            return bad("x and y are required (normalised 0...1, origin lower-left)")
        }
        for (name, value) in [("x", x), ("y", y)] {
            guard value.isFinite else { return bad("\(name) must be a finite number") }
            guard (0...1).contains(value) else { return bad("\(name) must be within 0...1 (normalised), got \(value)") }
        }
        var label = request.label?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let text = label {
            guard !text.isEmpty else {
                return bad("label must not be empty (leave it out to use the current top class)")
            }
            guard text.count <= 200 else { return bad("label is longer than 200 characters") }
            label = text
        }
        return .success((x, y, label))
    }

    private func respond(
        _ request: HTTPRequestHead, status: HTTPResponseStatus, type: String, body: [UInt8],
        extra: [(String, String)] = [], context: ChannelHandlerContext
    ) {
        let keepAlive = request.isKeepAlive
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(contentsOf: extra)
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        var response = HTTPResponseHead(version: request.version, status: status, headers: headers)
        if request.version.major == 1 && request.version.minor == 0 && keepAlive {
            response.headers.add(name: "Connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if request.method != .HEAD && !body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        writeStarted()
        queuedResponses += 1
        // Set before `.end`: writing it may hand us the next pipelined request at once.
        phase = keepAlive ? .idle(since: .now()) : .busy
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        done.assumeIsolated().whenComplete { result in
            self.queuedResponses -= 1
            self.lastWriteProgress = .now()
            if !keepAlive || (try? result.get()) == nil {
                context.close(promise: nil)
            } else {
                self.answerPending()
            }
        }
    }

    // MARK: streaming

    private func startStream(_ kind: StreamKind, head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        switch kind {
        case .mjpeg: headers.add(name: "Content-Type", value: "multipart/x-mixed-replace; boundary=\(Hub.boundary)")
        case .events: headers.add(name: "Content-Type", value: "text/event-stream; charset=utf-8")
        }
        headers.add(name: "Cache-Control", value: "no-cache, no-store, must-revalidate")
        headers.add(name: "Pragma", value: "no-cache")
        headers.add(name: "Connection", value: "close")
        headers.add(name: "X-Accel-Buffering", value: "no")
        let response = HTTPResponseHead(version: head.version, status: .ok, headers: headers)
        phase = .streaming
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if head.method == .HEAD {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
            return
        }
        let preamble = kind == .mjpeg ? Hub.streamPreamble : "retry: 1000\n\n"
        context.writeAndFlush(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: preamble)))),
            promise: nil)

        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        let sink = ClientSink(id: connectionID, kind: kind, channel: context.channel) {
            loop.execute { bound.value.drain() }
        }
        self.sink = sink
        hub.addSink(sink)
        keepReadingDuringStream(context: context)
    }

    /// The pipelining handler stops reading while a response is pending, and a stream's
    /// response never ends: the server would not see a client that went away until a write
    /// failed, and an idle `/events` client would hold its connection slot forever. Removing
    /// it (on the next tick, out of its own call stack) lets reads flow again: EOF closes the
    /// connection, and anything else the client sends is read and dropped by ``channelRead``.
    private func keepReadingDuringStream(context: ChannelHandlerContext) {
        let pipeline = context.pipeline
        context.eventLoop.execute {
            let operations = pipeline.syncOperations
            if let pipelining = try? operations.handler(type: HTTPServerPipelineHandler.self) {
                operations.removeHandler(pipelining, promise: nil)
            }
        }
    }

    /// On the event loop: write the newest waiting message unless a write is still in flight.
    /// At most one message per client is ever handed to the channel, so a client that stops
    /// reading pins one message here and one in its mailbox, however fast frames are published.
    private func drain() {
        guard let context, let sink, !writeInFlight, !shuttingDown else { return }
        guard let message = sink.take() else { return }
        writeStarted()
        writeInFlight = true
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(message)))).assumeIsolated().whenComplete { result in
            self.writeInFlight = false
            self.lastWriteProgress = .now()
            sink.writeCompleted()
            switch result {
            case .success: self.drain()
            case .failure: context.close(promise: nil)
            }
        }
    }

    /// Server stop: an `/events` client gets what waits in its mailbox and the final status,
    /// then the connection closes; any other connection closes at once.
    private func shutDown(context: ChannelHandlerContext) {
        guard !shuttingDown else { return }
        shuttingDown = true
        guard let sink, sink.kind == .events, let final = hub.finalStatusEvent() else {
            context.close(promise: nil)
            return
        }
        var goodbye = context.channel.allocator.buffer(capacity: final.readableBytes)
        if var waiting = sink.take() { goodbye.writeBuffer(&waiting) }
        var last = final
        goodbye.writeBuffer(&last)
        writeStarted()
        writeInFlight = true
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(goodbye)))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
