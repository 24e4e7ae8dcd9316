import NIOCore

/// The first handler of a connection: tells the `ConnectionGuard` that bytes arrived, before the
/// HTTP decoder has a whole request head, so the header timer of a keep-alive connection's next
/// request starts at its first byte.
final class InboundBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connections: ConnectionGuard

    init(connections: ConnectionGuard) {
        self.connections = connections
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connections.bytesArrived(on: context.channel)
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension InboundBytesHandler: Sendable {}
