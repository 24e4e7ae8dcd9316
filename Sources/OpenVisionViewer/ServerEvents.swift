/// Counts of the server's protective actions (for tests and diagnostics).
struct ServerEvents: Sendable, Equatable {
    /// Connections answered 503 because ``LiveViewerServer/Configuration/maxConnections`` were open.
    var refusedConnections = 0
    /// Connections closed for not sending a complete request head in time.
    var headerTimeouts = 0
    /// Keep-alive connections closed for idling.
    var idleTimeouts = 0
    /// Connections closed because their writes made no progress.
    var writeStalls = 0
    /// Times a request was held back because its connection had too much unwritten output.
    var deferredRequests = 0
}

/// What ``Hub/addConnection(_:limit:)`` decided about a new connection.
enum ConnectionAdmission: Sendable, Equatable {
    case accepted(id: Int)
    /// The server is at its connection limit: answer 503 and close.
    case full
    /// The server is stopping: close.
    case closed
}
