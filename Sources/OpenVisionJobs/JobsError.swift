import PostgresNIO

/// The one error type of the job queue: a stable code and a message for people.
///
/// `PSQLError`s are mapped here (`init(_:)`), the only place that reads them: a lost or refused
/// connection becomes `.connection` (the worker reconnects and carries on), anything the server
/// rejected becomes `.database` with its SQLSTATE and message.
public struct JobsError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The `--db` URL could not be understood.
        case invalidURL
        /// No connection to the database: refused, closed, or the server shutting down.
        case connection
        /// The server rejected a statement (the SQLSTATE is in the message).
        case database
        /// The database holds a newer schema than this build knows.
        case schemaTooNew
        /// A submitted input or option is not acceptable.
        case invalidInput
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Maps any error from PostgresNIO or NIO: server errors of the connection classes (08, 57P0x)
    /// and every client-side failure are `.connection`; other server errors are `.database`.
    public init(_ error: any Error) {
        if let error = error as? JobsError {
            self = error
            return
        }
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                let text = error.serverInfo?[.message] ?? "\(error.code)"
                // 08: connection exception; 57P01..57P03: admin/crash shutdown, cannot connect now.
                let transient = state.hasPrefix("08") || state.hasPrefix("57P")
                self.init(transient ? .connection : .database, "\(text) [SQLSTATE \(state)]")
            } else {
                // Client side: the connection failed or closed; NIO's error says how (refused, reset, ...).
                self.init(.connection, error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)")
            }
            return
        }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
                self.init(inner)
            } else {
                self.init(.database, "transaction failed")
            }
            return
        }
        self.init(.connection, "\(error)")
    }

    /// True when retrying after a reconnect may succeed.
    public var isTransient: Bool { code == .connection }

    public var description: String { message }
}
