import NIOCore
import NIOHTTP1

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
    /// A complete request not answered yet (at most one: the pipelining handler holds the rest).
    private var pending: HTTPRequestHead?
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
            phase = .busy
        case .body:
            break
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            guard !shuttingDown else { return }
            pending = head
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
        deferralRecorded = false
        responding = true
        route(head, context: context)
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
        case .idle(let since) where outstandingWrites == 0
            && now - max(since, lastWriteProgress) > configuration.idleTimeout.timeAmount:
            hub.record { $0.idleTimeouts += 1 }
            context.close(promise: nil)
        default:
            break
        }
    }

    // MARK: routing

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.method == .GET || head.method == .HEAD else {
            respond(head, status: .methodNotAllowed, type: "text/plain; charset=utf-8",
                    body: Array("method not allowed\n".utf8), extra: [("Allow", "GET, HEAD")], context: context)
            return
        }
        if checkHost, !HostHeader.isLoopback(head.headers.first(name: "host")) {
            // Refuse DNS-rebinding: a page from another site must not read the camera.
            respond(head, status: .forbidden, type: "text/plain; charset=utf-8",
                    body: Array("forbidden host\n".utf8), context: context)
            return
        }
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        switch path {
        case "/", "/index.html":
            respond(head, status: .ok, type: "text/html; charset=utf-8", body: Array(viewerPageHTML.utf8), context: context)
        case "/health":
            respond(head, status: .ok, type: "text/plain; charset=utf-8", body: Array("ok".utf8), context: context)
        case "/snapshot.jpg":
            if let frame = hub.latestFrame {
                respond(head, status: .ok, type: "image/jpeg", body: frame.jpeg,
                        extra: [("X-Frame-Index", String(frame.index)), ("X-Timestamp", String(frame.timestamp))],
                        context: context)
            } else {
                respond(head, status: .serviceUnavailable, type: "text/plain; charset=utf-8",
                        body: Array("no frame yet\n".utf8), extra: [("Retry-After", "1")], context: context)
            }
        case "/stream.mjpg":
            startStream(.mjpeg, head: head, context: context)
        case "/events":
            startStream(.events, head: head, context: context)
        default:
            respond(head, status: .notFound, type: "text/plain; charset=utf-8", body: Array("not found\n".utf8), context: context)
        }
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
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: preamble)))),
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
