import Foundation
import PostgresNIO

/// Where the job database is: a libpq-style URL,
/// `postgres://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?host=/socket/dir&port=PORT&sslmode=disable&connect_timeout=S&statement_timeout=S]`.
///
/// `host` in the query (as libpq) names a folder holding the server's Unix socket
/// (`.s.PGSQL.PORT`); without a host the socket folder is `/var/run/postgresql`. The user defaults
/// to `$PGUSER`, then `postgres`; the password to `$PGPASSWORD`; the port to `$PGPORT`, then 5432
/// (1...65535, else `.invalidURL`). TLS is not offered: `sslmode` may be absent, `disable` or `prefer`
/// (which then connects without TLS); `require` and above are refused with `.invalidURL`.
/// `connect_timeout` (libpq's) bounds a connection's set-up and `statement_timeout` each statement's
/// answer, in seconds (0 < S ≤ 3600; defaults 10 and 30): past them the connection is closed and the
/// call fails with `.connection`.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    /// The server's host name or address; nil connects through the Unix socket in `socketDirectory`.
    public var host: String?
    /// The server's port (1...65535): the URL's, else `$PGPORT`, else 5432.
    public var port: Int
    /// The folder holding the server's Unix socket (`?host=/dir`); nil with a host, `/var/run/postgresql` without.
    public var socketDirectory: String?
    /// The user name: the URL's, else `$PGUSER`, else `postgres`.
    public var username: String
    /// The password: the URL's, else `$PGPASSWORD`; nil for none.
    public var password: String?
    /// The database name; nil uses the server's default (the user's name).
    public var database: String?
    /// How long a connection's set-up (TCP or socket, start-up, authentication) may take.
    public var connectTimeout: Duration = .seconds(10)
    /// How long the client waits for a statement's answer before it closes the connection.
    public var statementTimeout: Duration = .seconds(30)

    /// The longest `connect_timeout` / `statement_timeout` accepted, in seconds.
    public static let maximumTimeoutSeconds: Double = 3600

    /// Parses `text` (see the type for the syntax), reading `PG*` defaults from `environment`;
    /// throws `JobsError` `.invalidURL` when it cannot be understood or asks for TLS.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw JobsError(
                .invalidURL, "--db must be a postgres:// URL (postgres://USER@HOST:PORT/DATABASE), got '\(text)'")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        if let mode = query["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw JobsError(
                .invalidURL,
                "sslmode=\(mode) is not supported: connect over a trusted network or a Unix socket (sslmode=disable)")
        }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        port = try Self.port(components.port.map(String.init) ?? query["port"] ?? environment["PGPORT"])
        if let dir = query["host"], dir.hasPrefix("/") {
            socketDirectory = dir
            self.host = nil
        } else if let host {
            self.host = host
        } else {
            socketDirectory = "/var/run/postgresql"
        }
        username = components.user?.removingPercentEncoding ?? environment["PGUSER"] ?? "postgres"
        password = components.password?.removingPercentEncoding ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path.removingPercentEncoding
        if let text = query["connect_timeout"] { connectTimeout = try Self.timeout("connect_timeout", text) }
        if let text = query["statement_timeout"] { statementTimeout = try Self.timeout("statement_timeout", text) }
    }

    /// A TCP port (or the number in a socket file's name): 1...65535; 5432 when absent.
    private static func port(_ text: String?) throws -> Int {
        guard let text else { return 5432 }
        guard let port = Int(text), (1...65535).contains(port) else {
            throw JobsError(.invalidURL, "port \(text) is not a port number (1...65535)")
        }
        return port
    }

    private static func timeout(_ name: String, _ text: String) throws -> Duration {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximumTimeoutSeconds else {
            throw JobsError(
                .invalidURL, "\(name)=\(text): give seconds, more than 0 and at most \(Int(maximumTimeoutSeconds))")
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// The PostgresNIO configuration: TCP without TLS, or the Unix socket.
    public var configuration: PostgresConnection.Configuration {
        var configuration =
            if let socketDirectory {
                PostgresConnection.Configuration(
                    unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username,
                    password: password, database: database)
            } else {
                PostgresConnection.Configuration(
                    host: host ?? "localhost", port: port, username: username, password: password,
                    database: database, tls: .disable)
            }
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.seconds * 1e9))
        return configuration
    }

    /// The URL without its password, for messages.
    public var description: String {
        let place = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(username)@\(host ?? ""):\(port)/\(database ?? "")\(place)"
    }
}
