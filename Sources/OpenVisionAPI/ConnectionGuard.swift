import NIOCore
import Synchronization

/// Keeps slow or idle connections from starving the server (slowloris): every connection is in one
/// of three phases, and
/// - one that has not delivered a complete request head within `headerTimeout` of its accept (or of
///   the first byte of its next request) is closed;
/// - at `maximumConnections`, a new connection evicts the one doing least: the longest-idle
///   keep-alive connection, else the one that has waited longest for its request head. Connections
///   with a request under way (its body arriving, analysed or answered) are never evicted; when every
///   connection has one, the new connection is refused (503, `tooManyConnections`).
///
/// So an attacker holding every slot with trickled heads only evicts its own connections, and a
/// client that sends a whole request at once (a health probe) is served at once. Per-address limits
/// were not chosen: behind a proxy, or on loopback, every client has the same address.
final class ConnectionGuard: Sendable {
    enum Phase: Sendable, Equatable {
        /// Accepted, or between requests with bytes of the next one arriving: the header timer runs.
        case awaitingHead
        /// A request head arrived; until its response ends.
        case inRequest
        /// Between requests, nothing received yet (keep-alive).
        case idle
    }

    private struct Connection {
        var channel: any Channel
        var phase: Phase
        var since: NIODeadline
        /// Counts the awaitingHead periods, so a late header timer of an earlier one does nothing.
        var generation = 0
        /// Request heads received and not yet answered (pipelining).
        var pending = 0
    }

    private struct State {
        var connections: [ObjectIdentifier: Connection] = [:]
        var evicted = 0
        var timedOut = 0
        var refused = 0
    }

    let maximumConnections: Int
    let headerTimeout: TimeAmount
    private let state = Mutex(State())

    init(maximumConnections: Int, headerTimeout: TimeAmount) {
        self.maximumConnections = max(1, maximumConnections)
        self.headerTimeout = headerTimeout
    }

    /// Open connections.
    var count: Int { state.withLock { $0.connections.count } }

    /// Connections closed for taking longer than `headerTimeout` to send a head, evicted for a new
    /// one, and refused: since start.
    var counts: (timedOut: Int, evicted: Int, refused: Int) {
        state.withLock { ($0.timedOut, $0.evicted, $0.refused) }
    }

    /// Registers a newly accepted connection, evicting another if the server is full; false if it
    /// must be refused (every connection has a request under way). Removes itself when it closes.
    func admit(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let now = NIODeadline.now()
        let (admitted, victim) = state.withLock { s -> (Bool, (any Channel)?) in
            var victim: (any Channel)?
            if s.connections.count >= maximumConnections {
                let candidates = s.connections.filter { $0.value.phase != .inRequest }
                let chosen = candidates.min { a, b in
                    // Idle before awaiting a head, then the oldest first.
                    let (x, y) = (a.value, b.value)
                    if (x.phase == .idle) != (y.phase == .idle) { return x.phase == .idle }
                    return x.since < y.since
                }
                guard let chosen else {
                    s.refused += 1
                    return (false, nil)
                }
                s.connections[chosen.key] = nil
                s.evicted += 1
                victim = chosen.value.channel
            }
            s.connections[id] = Connection(channel: channel, phase: .awaitingHead, since: now)
            return (true, victim)
        }
        victim?.close(promise: nil)
        guard admitted else { return false }
        channel.closeFuture.whenComplete { _ in self.state.withLock { _ = $0.connections.removeValue(forKey: id) } }
        scheduleHeaderDeadline(channel, generation: 0)
        return true
    }

    /// Bytes arrived on `channel`: an idle connection starts waiting for its next request's head.
    func bytesArrived(on channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let generation = state.withLock { s -> Int? in
            guard var c = s.connections[id], c.phase == .idle else { return nil }
            c.phase = .awaitingHead
            c.since = .now()
            c.generation += 1
            s.connections[id] = c
            return c.generation
        }
        if let generation { scheduleHeaderDeadline(channel, generation: generation) }
    }

    /// A request head arrived on `channel`.
    func requestStarted(on channel: any Channel) {
        update(channel) { c in
            c.pending += 1
            c.phase = .inRequest
        }
    }

    /// A response on `channel` ended: once every request received has its response, the connection
    /// is idle until its next request.
    func responseEnded(on channel: any Channel) {
        update(channel) { c in
            c.pending = max(0, c.pending - 1)
            if c.pending == 0 { c.phase = .idle }
        }
    }

    private func update(_ channel: any Channel, _ change: (inout Connection) -> Void) {
        let id = ObjectIdentifier(channel)
        state.withLock { s in
            guard var c = s.connections[id] else { return }
            change(&c)
            c.since = .now()
            s.connections[id] = c
        }
    }

    private func scheduleHeaderDeadline(_ channel: any Channel, generation: Int) {
        let id = ObjectIdentifier(channel)
        channel.eventLoop.scheduleTask(in: headerTimeout) {
            let late = self.state.withLock { s -> Bool in
                guard let c = s.connections[id], c.phase == .awaitingHead, c.generation == generation else {
                    return false
                }
                s.timedOut += 1
                return true
            }
            if late { channel.close(promise: nil) }
        }
    }
}
