import Foundation
import PostgresNIO

/// Where the job database is: a libpq-style URL,
/// `postgres://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?host=/socket/dir&port=PORT&sslmode=disable]`.
///
/// `host` in the query (as libpq) names a folder holding the server's Unix socket
/// (`.s.PGSQL.PORT`); without a host the socket folder is `/var/run/postgresql`. The user defaults
/// to `$PGUSER`, then `postgres`; the password to `$PGPASSWORD`. TLS is not offered: `sslmode`
/// may be absent, `disable` or `prefer` (which then connects without TLS); `require` and above
/// are refused with `.invalidURL`.
public struct DatabaseURL: Sendable, CustomStringConvertible {
    public var host: String?
    public var port: Int
    public var socketDirectory: String?
    public var username: String
    public var password: String?
    public var database: String?

    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql" else {
            throw JobsError(.invalidURL, "--db must be a postgres:// URL (postgres://USER@HOST:PORT/DATABASE), got '\(text)'")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        if let mode = query["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw JobsError(.invalidURL, "sslmode=\(mode) is not supported: connect over a trusted network or a Unix socket (sslmode=disable)")
        }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        port = components.port ?? Int(query["port"] ?? "") ?? Int(environment["PGPORT"] ?? "") ?? 5432
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
    }

    /// The PostgresNIO configuration: TCP without TLS, or the Unix socket.
    public var configuration: PostgresConnection.Configuration {
        if let socketDirectory {
            return PostgresConnection.Configuration(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username,
                                                    password: password, database: database)
        }
        return PostgresConnection.Configuration(host: host ?? "localhost", port: port, username: username, password: password,
                                                database: database, tls: .disable)
    }

    /// The URL without its password, for messages.
    public var description: String {
        let place = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(username)@\(host ?? ""):\(port)/\(database ?? "")\(place)"
    }
}
