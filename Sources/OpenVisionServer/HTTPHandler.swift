import NIOCore
import NIOHTTP1

/// One connection's HTTP handler. Plain responses carry a Content-Length (the pipeline's
/// automatic framing is off); the two streams are delimited by connection close, so the
/// MJPEG and SSE bytes go to the client exactly as written, with no chunked encoding.
final class ViewerHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let hub: Hub
    private let checkHost: Bool
    private var context: ChannelHandlerContext?
    private var connectionID: Int?
    private var requestHead: HTTPRequestHead?
    private var sink: ClientSink?
    private var writeInFlight = false

    init(hub: Hub, checkHost: Bool) {
        self.hub = hub
        self.checkHost = checkHost
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        if let id = hub.addConnection(context.channel) {
            connectionID = id
        } else {
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id = connectionID { hub.removeConnection(id) }
        connectionID = nil
        sink = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            requestHead = head
        case .body:
            break
        case .end:
            guard let head = requestHead else { return }
            requestHead = nil
            if sink == nil { route(head, context: context) }
        }
    }

    // MARK: routing

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.method == .GET || head.method == .HEAD else {
            respond(head, status: .methodNotAllowed, type: "text/plain; charset=utf-8",
                    body: Array("method not allowed\n".utf8), extra: [("Allow", "GET, HEAD")], context: context)
            return
        }
        if checkHost, !Self.isLoopbackHost(head.headers.first(name: "host")) {
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

    static func isLoopbackHost(_ header: String?) -> Bool {
        guard var host = header?.lowercased(), !host.isEmpty else { return true }  // HTTP/1.0: no Host
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
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
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            done.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
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

        guard let id = connectionID else { return }
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        let sink = ClientSink(id: id, kind: kind, channel: context.channel) {
            loop.execute { bound.value.drain() }
        }
        self.sink = sink
        hub.addSink(sink)
    }

    /// On the event loop: write the newest waiting message unless a write is still in flight.
    /// At most one message per client is ever handed to the channel, so a client that stops
    /// reading pins one message here and one in its mailbox, however fast frames are published.
    private func drain() {
        guard let context, let sink, !writeInFlight else { return }
        guard let message = sink.take() else { return }
        writeInFlight = true
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(message)))).assumeIsolated().whenComplete { result in
            self.writeInFlight = false
            sink.writeCompleted()
            switch result {
            case .success: self.drain()
            case .failure: context.close(promise: nil)
            }
        }
    }
}
