import NIOCore

/// Fired down the pipeline (as a user event) before each chunk of request bytes.
struct RequestBytesArrived: Sendable {}

/// The first handler of a viewer connection: tells the HTTP handler that bytes arrived, before
/// the HTTP decoder has a complete request head, so the header timeout can start at a
/// request's first byte rather than when its head is complete.
final class InboundActivityHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(RequestBytesArrived())
        context.fireChannelRead(data)
    }
}
