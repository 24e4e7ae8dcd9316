import Foundation
import NIOCore
import Synchronization

/// Which live stream a client is reading.
enum StreamKind: String, Sendable {
    case mjpeg
    case events
}

/// The one-slot mailbox between publishers (any thread) and one streaming client's handler
/// (its event loop). A publisher overwrites the slot, so a client that cannot keep up skips
/// frames instead of queueing them: per client there is at most one message waiting here plus
/// one being written to the socket.
final class ClientSink: Sendable {
    struct State {
        /// The newest message not yet handed to the channel.
        var pending: ByteBuffer?
        /// True while the handler is sure to look at `pending` again by itself (a wake-up task
        /// is scheduled, or a write is in flight and its completion will drain). Publishers only
        /// schedule a wake-up when this is false, so a stalled client costs them nothing.
        var handlerWillPoll = false
        /// Bytes handed to the channel whose write has not completed yet.
        var inFlightBytes = 0
        var delivered = 0
        var skipped = 0
        /// Wake-up tasks publishers scheduled on the event loop (a stalled client costs one).
        var wakeups = 0
    }

    let id: Int
    let kind: StreamKind
    let channel: any Channel
    let state = Mutex(State())
    private let wake: @Sendable () -> Void

    init(id: Int, kind: StreamKind, channel: any Channel, wake: @escaping @Sendable () -> Void) {
        self.id = id
        self.kind = kind
        self.channel = channel
        self.wake = wake
    }

    /// Called from any thread: replaces whatever is waiting and wakes the handler if needed.
    func offer(_ message: ByteBuffer) {
        let needsWake = state.withLock { s -> Bool in
            if s.pending != nil { s.skipped += 1 }
            s.pending = message
            if s.handlerWillPoll { return false }
            s.handlerWillPoll = true
            s.wakeups += 1
            return true
        }
        if needsWake { wake() }
    }

    /// Called on the event loop when no write is in flight: the next message, if any.
    /// Returning nil also records that the handler stopped polling.
    func take() -> ByteBuffer? {
        state.withLock { s -> ByteBuffer? in
            guard let message = s.pending else {
                s.handlerWillPoll = false
                return nil
            }
            s.pending = nil
            s.delivered += 1
            s.inFlightBytes = message.readableBytes
            return message
        }
    }

    func writeCompleted() {
        state.withLock { $0.inFlightBytes = 0 }
    }
}

/// A snapshot of one streaming client's buffering (for tests and diagnostics).
struct ClientBufferStats: Sendable {
    var id: Int
    var kind: StreamKind
    /// Bytes waiting in the mailbox (at most one message).
    var pendingBytes: Int
    /// Bytes handed to the channel and not yet written to the socket (at most one message).
    var inFlightBytes: Int
    var delivered: Int
    var skipped: Int
    var wakeups: Int
}

/// Shared state of one server: the latest frame and overlay, the streaming clients and every
/// open connection (so `stop()` can close them).
final class Hub: Sendable {
    static let boundary = "ovframe"

    private struct State {
        var latestFrame: PreviewFrame?
        var latestEvent: ByteBuffer?
        var latestStatus: ViewerStatus?
        var latestStatusEvent: ByteBuffer?
        var events = ServerEvents()
        var sinks: [Int: ClientSink] = [:]
        var connections: [Int: any Channel] = [:]
        var nextID = 0
        var closed = false
        var anchorService: (any AnchorService)?
    }

    private let state = Mutex(State())
    private let allocator = ByteBufferAllocator()

    // MARK: publishing (any thread)

    func publish(frame: PreviewFrame) {
        let sinks = state.withLock { s -> [ClientSink] in
            s.latestFrame = frame
            return s.sinks.values.filter { $0.kind == .mjpeg }
        }
        guard !sinks.isEmpty else { return }
        let part = mjpegPart(frame)  // built once, shared by every client (copy-on-write, never mutated)
        for sink in sinks { sink.offer(part) }
    }

    func publish(overlay: OverlayUpdate) {
        guard let event = sseEvent(overlay) else { return }
        let sinks = state.withLock { s -> [ClientSink] in
            s.latestEvent = event
            return s.sinks.values.filter { $0.kind == .events }
        }
        for sink in sinks { sink.offer(event) }
    }

    /// Sends `status` to every `/events` client as an SSE `status` event; new clients get the
    /// latest one when they connect.
    func publish(status: ViewerStatus) {
        guard let event = sseEvent(status, name: "status") else { return }
        let sinks = state.withLock { s -> [ClientSink] in
            s.latestStatus = status
            s.latestStatusEvent = event
            return s.sinks.values.filter { $0.kind == .events }
        }
        for sink in sinks { sink.offer(event) }
    }

    var latestFrame: PreviewFrame? { state.withLock { $0.latestFrame } }

    /// What answers `/anchors`; nil: the endpoints answer 404.
    var anchorService: (any AnchorService)? {
        get { state.withLock { $0.anchorService } }
        set { state.withLock { $0.anchorService = newValue } }
    }

    /// The last event an `/events` client gets before the server closes it: the published
    /// `ended` or `failed` status if there is one, else `stopped`.
    func finalStatusEvent() -> ByteBuffer? {
        let latest = state.withLock { $0.latestStatus }
        if let latest, latest.state == .ended || latest.state == .failed { return sseEvent(latest, name: "status") }
        return sseEvent(ViewerStatus(state: .stopped, detail: "server stopped"), name: "status")
    }

    // MARK: connections (event loop threads)

    /// Registers an open connection unless `limit` connections are open or the server is stopping.
    func addConnection(_ channel: any Channel, limit: Int) -> ConnectionAdmission {
        state.withLock { s -> ConnectionAdmission in
            guard !s.closed else { return .closed }
            guard s.connections.count < limit else {
                s.events.refusedConnections += 1
                return .full
            }
            s.nextID += 1
            s.connections[s.nextID] = channel
            return .accepted(id: s.nextID)
        }
    }

    var connectionCount: Int { state.withLock { $0.connections.count } }

    var events: ServerEvents { state.withLock { $0.events } }

    func record(_ update: @Sendable (inout ServerEvents) -> Void) {
        state.withLock { update(&$0.events) }
    }

    func removeConnection(_ id: Int) {
        state.withLock { s in
            s.connections[id] = nil
            s.sinks[id] = nil
        }
    }

    /// Registers a streaming client and primes its mailbox with the latest frame or overlay,
    /// so a new viewer shows something at once.
    func addSink(_ sink: ClientSink) {
        let (frame, event, status) = state.withLock { s -> (PreviewFrame?, ByteBuffer?, ByteBuffer?) in
            guard !s.closed else { return (nil, nil, nil) }
            s.sinks[sink.id] = sink
            return (s.latestFrame, s.latestEvent, s.latestStatusEvent)
        }
        switch sink.kind {
        case .mjpeg:
            if let frame { sink.offer(mjpegPart(frame)) }
        case .events:
            // One message (the mailbox holds one): the latest overlay, then the latest status.
            var primer = allocator.buffer(capacity: 0)
            if var event { primer.writeBuffer(&event) }
            if var status { primer.writeBuffer(&status) }
            if primer.readableBytes > 0 { sink.offer(primer) }
        }
    }

    /// Stops accepting streaming clients and returns every open connection.
    func closeAll() -> [any Channel] {
        state.withLock { s -> [any Channel] in
            s.closed = true
            s.sinks = [:]
            let all = Array(s.connections.values)
            s.connections = [:]
            return all
        }
    }

    var streamingClientCount: Int { state.withLock { $0.sinks.count } }

    func bufferStats() -> [ClientBufferStats] {
        let sinks = state.withLock { Array($0.sinks.values) }
        return sinks.map { sink in
            sink.state.withLock { s in
                ClientBufferStats(
                    id: sink.id, kind: sink.kind, pendingBytes: s.pending?.readableBytes ?? 0,
                    inFlightBytes: s.inFlightBytes, delivered: s.delivered, skipped: s.skipped,
                    wakeups: s.wakeups)
            }
        }.sorted { $0.id < $1.id }
    }

    /// Bytes NIO itself holds un-written for each streaming client (its outbound buffer).
    func channelBufferedBytes() async -> [Int] {
        let sinks = state.withLock { Array($0.sinks.values) }
        var result: [Int] = []
        for sink in sinks {
            if let n = try? await sink.channel.getOption(.bufferedWritableBytes).get() { result.append(n) }
        }
        return result
    }

    /// Bytes NIO holds un-written for every open connection, streams or not (its outbound buffer).
    func connectionBufferedBytes() async -> [Int] {
        let channels = state.withLock { Array($0.connections.values) }
        var result: [Int] = []
        for channel in channels {
            if let n = try? await channel.getOption(.bufferedWritableBytes).get() { result.append(n) }
        }
        return result
    }

    // MARK: encoding

    /// The stream starts with a boundary line and every part ends with the next boundary, so a
    /// browser shows each frame as soon as it arrives (instead of when the next one starts).
    static let streamPreamble = "--\(boundary)\r\n"

    private func mjpegPart(_ frame: PreviewFrame) -> ByteBuffer {
        let header =
            "Content-Type: image/jpeg\r\n"
            + "Content-Length: \(frame.jpeg.count)\r\n"
            + "X-Frame-Index: \(frame.index)\r\n"
            + "X-Timestamp: \(frame.timestamp)\r\n"
            + "X-Frame-Size: \(frame.width)x\(frame.height)\r\n\r\n"
        let trailer = "\r\n--\(Hub.boundary)\r\n"
        var buffer = allocator.buffer(capacity: header.utf8.count + frame.jpeg.count + trailer.utf8.count)
        buffer.writeString(header)
        buffer.writeBytes(frame.jpeg)
        buffer.writeString(trailer)
        return buffer
    }

    private func sseEvent(_ overlay: OverlayUpdate) -> ByteBuffer? {
        sseEvent(overlay.sanitized(), name: nil)
    }

    /// `event: name` (when given) and one `data:` line of `value`'s JSON.
    private func sseEvent(_ value: some Encodable, name: String?) -> ByteBuffer? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(value) else { return nil }
        // JSONEncoder never emits raw newlines, so the update fits one `data:` line.
        var buffer = allocator.buffer(capacity: json.count + 24)
        if let name { buffer.writeString("event: \(name)\n") }
        buffer.writeString("data: ")
        buffer.writeBytes(json)
        buffer.writeString("\n\n")
        return buffer
    }
}
