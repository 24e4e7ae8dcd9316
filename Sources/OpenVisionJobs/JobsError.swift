import PostgresNIO

/// The one error type of the job queue: a stable code and a message for people.
///
/// `PSQLError`s are mapped here (`init(_:)`), the only place that reads them: a lost or refused
/// connection, a server shutting down or out of connection slots, and a statement without an answer
/// by its deadline become `.connection` (the worker reconnects and carries on); refused credentials
/// `.authentication`; anything else the server rejected `.database` with its SQLSTATE and message.
public struct JobsError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, stable for scripts.
    public enum Code: String, Sendable {
        /// The `--db` URL could not be understood.
        case invalidURL
        /// No connection to the database: refused, closed, no answer by the deadline, the server shutting down
        /// or out of connection slots.
        case connection
        /// The server refused the credentials, or asks for a password and none was given.
        case authentication
        /// The server rejected a statement (the SQLSTATE is in the message).
        case database
        /// The database holds a newer schema than this build knows.
        case schemaTooNew
        /// A submitted input or option is not acceptable.
        case invalidInput
    }

    /// What went wrong.
    public var code: Code
    /// A message for people, with the details (SQLSTATE, input).
    public var message: String

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Maps any error from PostgresNIO or NIO: server errors of the connection classes (08, 57P0x) and
    /// 53300 (too many connections), and every client-side failure of the connection are `.connection`;
    /// class 28 and a password the server asks for but was not given are `.authentication`; other server
    /// errors are `.database`.
    public init(_ error: any Error) {
        if let error = error as? JobsError {
            self = error
            return
        }
        if let error = error as? PSQLError {
            self = Self.mapping(error)
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

    private static func mapping(_ error: PSQLError) -> JobsError {
        if let state = error.serverInfo?[.sqlState] {
            let text = "\(error.serverInfo?[.message] ?? "\(error.code)") [SQLSTATE \(state)]"
            // 08: connection exception; 57P01..57P03: admin/crash shutdown, cannot connect now; 53300: too many connections.
            if state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
                return JobsError(.connection, text)
            }
            if state.hasPrefix("28") { return JobsError(.authentication, text) }
            return JobsError(.database, text)
        }
        // Client side: why the connection failed or ended, in words (PSQLError's own description hides it).
        switch error.code {
        case .authMechanismRequiresPassword:
            return JobsError(
                .authentication,
                "the server asks for a password and none was given: put it in the URL (postgres://USER:PASSWORD@HOST/DATABASE) or in $PGPASSWORD"
            )
        case .unsupportedAuthMechanism:
            return JobsError(
                .authentication,
                "the server asks for an authentication method PostgresNIO does not support (use scram-sha-256, md5 or trust)"
            )
        case .saslError:
            return JobsError(.authentication, "SCRAM authentication failed\(error.underlying.map { ": \($0)" } ?? "")")
        case .serverClosedConnection:
            return JobsError(.connection, "the server closed the connection")
        case .clientClosedConnection:
            return JobsError(.connection, "the connection was closed")
        case .uncleanShutdown:
            return JobsError(.connection, "the connection ended uncleanly")
        case .connectionError:
            return JobsError(.connection, error.underlying.map { "\($0)" } ?? "cannot connect")
        default:
            let detail = error.underlying.flatMap { $0 is PSQLError ? nil : "\($0)" }
            return JobsError(.connection, detail.map { "\(error.code): \($0)" } ?? "\(error.code)")
        }
    }

    /// True when retrying after a reconnect may succeed.
    public var isTransient: Bool { code == .connection }

    /// The value as short text, for logs and command-line output.
    public var description: String { message }
}
