import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// After the HTTP codec: tells the `ConnectionGuard` when a request head is complete and when its
/// response has ended.
final class RequestPhaseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: ConnectionGuard

    init(connections: ConnectionGuard) {
        self.connections = connections
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { connections.requestStarted(on: context.channel) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connections.responseEnded(on: context.channel) }
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension RequestPhaseHandler: Sendable {}
