import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Errors from ``LiveViewerServer/start()``.
public enum LiveViewerServerError: Error, CustomStringConvertible, Sendable {
    case alreadyStarted
    case stopped
    case bindFailed(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case .alreadyStarted: "the live viewer server is already running"
        case .stopped: "the live viewer server was stopped and cannot be restarted"
        case .bindFailed(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
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
///
/// Binds to 127.0.0.1 by default. The publish methods are thread-safe and never wait for a
/// client: each streaming client holds at most the newest message waiting plus one being
/// written, so a slow client skips frames instead of queueing them.
public final class LiveViewerServer: Sendable {
    public let host: String
    public let port: Int

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
    ///   - port: TCP port; 0 picks a free one (see ``boundPort``).
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }

    /// Starts listening; returns once the socket is bound. A server starts once.
    public func start() async throws {
        try running.withLock { r in
            if r.stopped { throw LiveViewerServerError.stopped }
            if r.started { throw LiveViewerServerError.alreadyStarted }
            r.started = true
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let hub = self.hub
        let checkHost = Self.isLoopbackAddress(host)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    var encoder = HTTPResponseEncoder.Configuration()
                    encoder.automaticallySetFramingHeaders = false
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withEncoderConfiguration: encoder)
                    try channel.pipeline.syncOperations.addHandler(ViewerHTTPHandler(hub: hub, checkHost: checkHost))
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

    /// Stops listening, closes every connection (streams included) and ends the server's thread.
    public func stop() async {
        let (group, channel) = running.withLock { r -> (MultiThreadedEventLoopGroup?, (any Channel)?) in
            r.stopped = true
            defer { r.group = nil; r.channel = nil }
            return (r.group, r.channel)
        }
        try? await channel?.close()
        for connection in hub.closeAll() {
            try? await connection.close()
        }
        try? await group?.shutdownGracefully()
    }

    static func isLoopbackAddress(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
