import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenVisionNetworking

/// Hummingbird's HTTP/1.1 child channel with a `ConnectionGuard` in front: each accepted connection
/// is admitted by the guard (which may evict an idle one) or refused with a JSON 503, and its
/// pipeline reports bytes, request heads and response ends to the guard.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let connections: ConnectionGuard

    static let refusal: String = {
        let body =
            #"{"error":{"code":"tooManyConnections","message":"every connection has a request under way; retry later"}}"#
        return
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 1\r\nConnection: close\r\n\r\n" + body
    }()

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let connections = self.connections
        let admitted = channel.eventLoop.makeCompletedFuture { () throws -> Void in
            if connections.admit(channel) {
                try channel.pipeline.syncOperations.addHandler(
                    InboundBytesHandler(connections: connections), position: .first)
            } else {
                try channel.pipeline.syncOperations.addHandler(
                    ConnectionRefusalHandler(response: Self.refusal), position: .first)
            }
        }
        return admitted.flatMap { http1.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 behind `connections` (see `GuardedHTTP1Channel`).
    static func guardedHTTP1(configuration: HTTP1Channel.Configuration, connections: ConnectionGuard)
        -> HTTPServerBuilder
    {
        var configuration = configuration
        let additional = configuration.additionalChannelHandlers
        configuration.additionalChannelHandlers = { [RequestPhaseHandler(connections: connections)] + additional() }
        let built = configuration
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: built), connections: connections)
        }
    }
}
