import NIOCore
import NIOHTTP1
import NIOPosix
import OpenVisionNetworking
import Synchronization

/// Errors from ``LiveViewerServer/start()``.
public enum LiveViewerServerError: Error, CustomStringConvertible, Sendable {
    /// `start()` was called on a server already running.
    case alreadyStarted
    /// `start()` was called after `stop()`: a server cannot be restarted.
    case stopped
    /// The address could not be bound (in use, not local, no permission); `reason` says why.
    case bindFailed(host: String, port: Int, reason: String)
    /// A listen address that is not `ADDR:PORT` with a port in 0...65535 (see ``ListenAddress``).
    case invalidAddress(String, reason: String)

    /// The value as short text, for logs and command-line output.
    public var description: String {
        switch self {
        case .alreadyStarted: "the live viewer server is already running"
        case .stopped: "the live viewer server was stopped and cannot be restarted"
        case .bindFailed(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .invalidAddress(let text, let reason): "invalid listen address '\(text)': \(reason)"
        }
    }
}

/// Serves the live viewer:
///
/// - `GET /`             the viewer page (MJPEG preview with a canvas overlay and a stats line)
/// - `GET /stream.mjpg`  `multipart/x-mixed-replace` MJPEG of the published frames
/// - `GET /events`       Server-Sent Events, one `data:` line of ``OverlayUpdate`` JSON per update
/// - `GET /snapshot.jpg` the latest frame
/// - `GET /health`       `ok`
/// - `GET /anchors`, `POST /anchors`, `DELETE /anchors/{id}`  pinned labels, when ``serveAnchors(_:)`` gave a
///   service (JSON; see ``AnchorService`` and docs/json-schema.md); 404 otherwise
///
/// Binds to 127.0.0.1 by default; bound to a loopback address it answers only requests whose
/// `Host` is a loopback address or `localhost` (403 otherwise: DNS-rebinding protection).
/// The publish methods are thread-safe and never wait for a client: each streaming client
/// holds at most the newest message waiting plus one being written, so a slow client skips
/// frames instead of queueing them. Connections, timeouts and per-connection queues are
/// bounded by ``Configuration`` (see `docs/server-limits.md`).
public final class LiveViewerServer: Sendable {
    /// The host as given, without brackets for IPv6.
    public let host: String
    /// The port as given; 0 picks a free one at `start()` (then read `boundPort`).
    public let port: Int
    /// The server's limits (connections, timeouts, queues).
    public let configuration: Configuration

    private struct Running {
        var group: MultiThreadedEventLoopGroup?
        var channel: (any Channel)?
        var boundPort = 0
        var started = false
        var stopped = false
    }

    private let running = Mutex(Running())
    let hub = Hub()

    /// - Parameters:
    ///   - host: address to listen on; keep a loopback address unless the viewer must be
    ///     reachable from elsewhere (the streams have no authentication).
    ///   - port: TCP port 0...65535; 0 picks a free one (see ``boundPort``). Others make
    ///     ``start()`` throw ``LiveViewerServerError/invalidAddress(_:reason:)``.
    ///   - configuration: connection limits and timeouts.
    public init(host: String = "127.0.0.1", port: Int = 8080, configuration: Configuration = .init()) {
        // Accept `[::1]` as well as `::1`.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.configuration = configuration
    }

    /// A server listening at `address` (e.g. parsed from `--serve` by ``ListenAddress/init(parsing:)``).
    public convenience init(address: ListenAddress, configuration: Configuration = .init()) {
        self.init(host: address.host, port: address.port, configuration: configuration)
    }

    /// Starts listening; returns once the socket is bound. A server starts once.
    public func start() async throws {
        guard (0...65535).contains(port) else {
            throw LiveViewerServerError.invalidAddress(
                "\(host):\(port)", reason: "port \(port) is out of range 0...65535")
        }
        try running.withLock { r in
            if r.stopped { throw LiveViewerServerError.stopped }
            if r.started { throw LiveViewerServerError.alreadyStarted }
            r.started = true
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = self.hub
        let checkHost = Self.isLoopbackAddress(host)
        let configuration = self.configuration
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    switch hub.addConnection(channel, limit: configuration.maxConnections) {
                    case .closed:
                        throw LiveViewerServerError.stopped
                    case .full:
                        try pipeline.addHandler(ConnectionRefusalHandler())
                    case .accepted(let id):
                        channel.closeFuture.whenComplete { _ in hub.removeConnection(id) }
                        var encoder = HTTPResponseEncoder.Configuration()
                        encoder.automaticallySetFramingHeaders = false
                        var limits = NIOHTTPDecoderLimitConfiguration()
                        limits.maxHeaderFieldSize = configuration.maxRequestHeadSize
                        limits.maxHeaderListSize = configuration.maxRequestHeadSize
                        try pipeline.addHandler(InboundActivityHandler())
                        try pipeline.configureHTTPServerPipeline(
                            withErrorHandling: false, withEncoderConfiguration: encoder,
                            withDecoderLimitConfiguration: limits)
                        try pipeline.addHandler(ProtocolErrorHandler())
                        try pipeline.addHandler(
                            ViewerHTTPHandler(
                                hub: hub, checkHost: checkHost, configuration: configuration, connectionID: id))
                    }
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            running.withLock { $0.started = false }
            throw LiveViewerServerError.bindFailed(host: host, port: port, reason: String(describing: error))
        }
        let bound = channel.localAddress?.port ?? port
        running.withLock { r in
            r.group = group
            r.channel = channel
            r.boundPort = bound
        }
    }

    /// The port actually listened on (useful with `port: 0`); 0 before ``start()``.
    public var boundPort: Int { running.withLock { $0.boundPort } }

    /// Number of clients currently reading `/stream.mjpg` or `/events`.
    public var streamingClientCount: Int { hub.streamingClientCount }

    /// Shows `frame` to every MJPEG client (and `/snapshot.jpg`). Never blocks on clients.
    public func publish(frame: PreviewFrame) {
        hub.publish(frame: frame)
    }

    /// Sends `overlay` to every `/events` client. Never blocks on clients.
    public func publish(overlay: OverlayUpdate) {
        hub.publish(overlay: overlay)
    }

    /// Tells every `/events` client (and each one that connects later) what the viewer shows:
    /// publish `.ended` when the source ends, so pages show that instead of a frozen frame.
    /// Never blocks on clients.
    public func publish(status: ViewerStatus) {
        hub.publish(status: status)
    }

    /// Answers `/anchors` with `service` from now on: `GET` lists the pinned labels, `POST` (a JSON body
    /// `{"x": 0.4, "y": 0.6, "label": "mug"}`, label optional, `Content-Type: application/json`) pins one,
    /// `DELETE /anchors/{id}` removes one. Bad input answers 400 with a JSON `{"error": message}`.
    public func serveAnchors(_ service: any AnchorService) {
        hub.anchorService = service
    }

    /// Stops listening, closes every connection (streams included) and ends the server's thread.
    /// `/events` clients first get a final `status` event (the published `ended` status, else
    /// `stopped`); a client that does not read it within 2 s is closed anyway.
    public func stop() async {
        let (group, channel) = running.withLock { r -> (MultiThreadedEventLoopGroup?, (any Channel)?) in
            r.stopped = true
            defer {
                r.group = nil
                r.channel = nil
            }
            return (r.group, r.channel)
        }
        try? await channel?.close()
        let connections = hub.closeAll()
        for connection in connections {
            connection.pipeline.fireUserInboundEventTriggered(ViewerShutdown())
        }
        let forced = connections.map { connection in
            connection.eventLoop.scheduleTask(in: .seconds(2)) { connection.close(promise: nil) }
        }
        for connection in connections { try? await connection.closeFuture.get() }
        for task in forced { task.cancel() }
        try? await group?.shutdownGracefully()
    }

    /// Whether `host` (as listened on) is loopback: `localhost`, 127.0.0.0/8, `::1`.
    static func isLoopbackAddress(_ host: String) -> Bool {
        HostHeader.isLoopbackBind(host)
    }
}
