import NIOCore

/// The whole pipeline of a connection past ``LiveViewerServer/Configuration/maxConnections``:
/// writes `503 Service Unavailable` with a short body, shuts its output, discards whatever the
/// client sends, and closes when the client does or after `linger` (reading until then keeps
/// the kernel from resetting the connection before the client has read the 503). Package-wide:
/// `openvision serve` refuses its surplus connections the same way, with a JSON body.
package final class ConnectionRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    static let body = "server busy: too many connections\n"
    package static let response =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body

    private let linger: TimeAmount
    private let text: String

    /// - Parameters:
    ///   - response: the whole HTTP response to write (head and body).
    ///   - linger: how long to read and discard before closing.
    package init(response: String = ConnectionRefusalHandler.response, linger: TimeAmount = .seconds(1)) {
        self.text = response
        self.linger = linger
    }

    package func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: text))).assumeIsolated()
            .whenComplete { _ in
                context.close(mode: .output, promise: nil)
            }
        context.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        context.fireChannelActive()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
