import NIOCore
import NIOHTTP1

/// Answers a request the HTTP decoder rejects, as NIO's `HTTPServerProtocolErrorHandler` does, but
/// with the status that says why: `431 Request Header Fields Too Large` for a head over
/// `maxRequestHeadSize` (NIO's `headerOverflow`), `400 Bad Request` for any other parse error. Sent
/// only when no response is under way; the decoder then closes the connection.
final class ProtocolErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var responseUnderway = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if !responseUnderway {
            let status: HTTPResponseStatus = parserError == .headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
            let head = HTTPResponseHead(
                version: .http1_1, status: status,
                headers: HTTPHeaders([("Connection", "close"), ("Content-Length", "0")]))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responseUnderway = true
        case .end: responseUnderway = false
        default: break
        }
        context.write(data, promise: promise)
    }
}

@available(*, unavailable)
extension ProtocolErrorHandler: Sendable {}
