import NIOCore

extension LiveViewerServer {
    /// The server's per-connection limits. The defaults suit a viewer on a trusted network:
    /// a few browser tabs, each holding two streams and making occasional requests.
    /// `docs/server-limits.md` lists what happens past each limit.
    public struct Configuration: Sendable, Equatable {
        /// Open connections served at once (streams included). A connection past the limit gets
        /// `503 Service Unavailable` with a short body and is closed. Default 64; keep it well
        /// below the process's file-descriptor limit.
        public var maxConnections: Int = 64

        /// A connection must deliver a complete request head within this time of connecting,
        /// or of the first byte of its next request; otherwise it is closed. Default 10 s.
        public var headerTimeout: Duration = .seconds(10)

        /// A keep-alive connection with no request in progress, nothing left to write and no
        /// stream open is closed after this time. Default 60 s. Streams never idle out.
        public var idleTimeout: Duration = .seconds(60)

        /// A connection whose queued writes make no progress for this long (the client stopped
        /// reading) is closed. Applies to streams too. Default 30 s.
        public var writeStallTimeout: Duration = .seconds(30)

        /// Responses written to a connection and not yet handed to the socket. Past it (or while
        /// the connection's outbound buffer is over its high-water mark) the server stops reading
        /// that connection's pipelined requests until the client reads. Default 16.
        public var maxQueuedResponses: Int = 16

        /// Bytes of the request target plus header names and values of one request. A larger
        /// head gets `431 Request Header Fields Too Large` and the connection is closed. Default 16 KiB.
        public var maxRequestHeadSize: Int = 16 * 1024

        /// The defaults above.
        public init() {}

        /// The interval at which each connection checks its timeouts: a quarter of the shortest
        /// one, between 10 ms and 1 s.
        var watchdogInterval: Duration {
            let shortest = min(headerTimeout, idleTimeout, writeStallTimeout)
            return min(max(shortest / 4, .milliseconds(10)), .seconds(1))
        }
    }
}

extension Duration {
    /// The duration as NIO's `TimeAmount` (nanosecond resolution, clamped to its range).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanos.overflow else { return .nanoseconds(seconds < 0 ? .min : .max) }
        return .nanoseconds(nanos.partialValue &+ attoseconds / 1_000_000_000)
    }
}
