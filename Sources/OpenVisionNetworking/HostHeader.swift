/// A parsed `Host` request header: `host[:port]`, where host is a DNS name, a dotted-quad
/// IPv4 address, or an IPv6 address in brackets (RFC 9110 §7.2, RFC 3986 §3.2.2). Package-wide:
/// `openvision serve` (OpenVisionAPI) makes the same DNS-rebinding check as the live viewer.
package struct HostHeader: Sendable, Equatable {
    /// Lower-cased, without brackets for IPv6.
    package var host: String
    package var port: Int?

    /// Nil when `value` is not a well-formed `host[:port]` (empty, bad port, an unbracketed
    /// IPv6 address, stray characters).
    package init?(_ value: String) {
        let text = value.lowercased()
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let inner = text[text.index(after: text.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            host = String(inner)
            rest = text[text.index(after: close)...]
        } else {
            let name = text.prefix { $0 != ":" }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }),
                name.allSatisfy(\.isASCII)
            else { return nil }
            host = String(name)
            rest = text[name.endIndex...]
        }
        if rest.isEmpty {
            port = nil
        } else {
            guard rest.first == ":" else { return nil }
            let digits = rest.dropFirst()
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let p = Int(digits), p <= 65535
            else { return nil }
            port = p
        }
    }

    /// True for `localhost` exactly, a dotted-quad address in 127.0.0.0/8, `::1` and the
    /// IPv4-mapped `::ffff:127.x.y.z`. Names that merely start or end like one
    /// (`127.0.0.1.evil.example`, `x.localhost`) are not loopback.
    package var isLoopback: Bool {
        if host == "localhost" { return true }
        if let octets = Self.ipv4(host) { return octets[0] == 127 }
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        if host.hasPrefix("::ffff:"), let octets = Self.ipv4(String(host.dropFirst(7))) { return octets[0] == 127 }
        return false
    }

    /// The four octets of a strict dotted-quad address (`127.0.0.1`, not `127.1` or `0x7f.0.0.1`).
    static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let v = Int(part), v <= 255
            else { return nil }
            octets.append(v)
        }
        return octets
    }

    /// The DNS-rebinding check of a server bound to loopback: the request's `Host` header must
    /// name a loopback address or `localhost`. A request without one (HTTP/1.0) passes: only
    /// browsers can be tricked into rebinding, and they always send Host.
    package static func isLoopback(_ header: String?) -> Bool {
        guard let header else { return true }
        return HostHeader(header)?.isLoopback ?? false
    }

    /// Whether a listen address (as given to bind, IPv6 with or without brackets) is loopback:
    /// `localhost`, 127.0.0.0/8, `::1`. A server bound to one makes the check above.
    package static func isLoopbackBind(_ host: String) -> Bool {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return HostHeader(bracketed)?.isLoopback ?? false
    }
}
