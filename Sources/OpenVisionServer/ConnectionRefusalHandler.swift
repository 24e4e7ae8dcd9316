import NIOCore

/// The whole pipeline of a connection past ``LiveViewerServer/Configuration/maxConnections``:
/// writes `503 Service Unavailable` with a short body, shuts its output, discards whatever the
/// client sends, and closes when the client does or after `linger` (reading until then keeps
/// the kernel from resetting the connection before the client has read the 503).
final class ConnectionRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let body = "server busy: too many connections\n"
    static let response =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body

    private let linger: TimeAmount

    init(linger: TimeAmount = .seconds(1)) {
        self.linger = linger
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: Self.response))).assumeIsolated()
            .whenComplete { _ in
                context.close(mode: .output, promise: nil)
            }
        context.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
