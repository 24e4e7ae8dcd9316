/// Where the viewer listens, parsed from the command line's `ADDR:PORT` forms:
///
/// | text | host | port |
/// |---|---|---|
/// | `8080`, `:8080` | `127.0.0.1` | 8080 |
/// | `0.0.0.0:8080`, `localhost:8080` | as given | 8080 |
/// | `[::1]:8080`, `[::]:8080` | `::1`, `::` (IPv6) | 8080 |
/// | `127.0.0.1`, `[::1]`, `localhost` | as given | ``defaultPort`` |
///
/// The port must be 0...65535 (0 picks a free one). A bare IPv6 address (`::1:8080`) is
/// ambiguous and refused: put IPv6 addresses in brackets.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host used when none is given: loopback only.
    public static let defaultHost = "127.0.0.1"
    /// The port used when none is given.
    public static let defaultPort = 8080

    /// A host name or an address; IPv6 without brackets.
    public var host: String
    /// The TCP port, 0...65535; 0 picks a free one.
    public var port: Int

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(host: String = ListenAddress.defaultHost, port: Int = ListenAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `text`; throws ``LiveViewerServerError/invalidAddress(_:reason:)`` with the reason.
    public init(parsing text: String) throws {
        func fail(_ reason: String) -> LiveViewerServerError { .invalidAddress(text, reason: reason) }
        func parsePort(_ digits: Substring) throws -> Int {
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let port = Int(digits)
            else { throw fail("the port must be a number 0...65535") }
            guard port <= 65535 else { throw fail("port \(port) is out of range 0...65535") }
            return port
        }
        let trimmed = Substring(text)
        if trimmed.isEmpty { throw fail("expected ADDR:PORT, e.g. 127.0.0.1:8080") }
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { throw fail("missing ']' after the IPv6 address") }
            let inner = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            guard !inner.isEmpty, inner.contains(":"),
                inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" || $0.isLetter || $0.isNumber })
            else { throw fail("'\(inner)' is not an IPv6 address") }
            let rest = trimmed[trimmed.index(after: close)...]
            host = String(inner)
            if rest.isEmpty {
                port = Self.defaultPort
            } else {
                guard rest.first == ":" else { throw fail("expected ':PORT' after ']'") }
                port = try parsePort(rest.dropFirst())
            }
            return
        }
        let colons = trimmed.filter { $0 == ":" }.count
        if colons > 1 { throw fail("put an IPv6 address in brackets, e.g. [::1]:8080") }
        if colons == 0 {
            if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
                host = Self.defaultHost
                port = try parsePort(trimmed)
            } else {
                host = String(trimmed)
                port = Self.defaultPort
            }
            return
        }
        let colon = trimmed.firstIndex(of: ":") ?? trimmed.endIndex
        let name = trimmed[..<colon]
        host = name.isEmpty ? Self.defaultHost : String(name)
        port = try parsePort(trimmed[trimmed.index(after: colon)...])
    }

    /// `host:port`, with IPv6 in brackets: the form a URL needs.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
