import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A blocking HTTP/1.1 client over a raw loopback TCP socket, so the tests see the exact bytes
/// the server sends (MJPEG boundaries, SSE lines) and can also play a client that never reads.
final class RawHTTPClient {
    private(set) var fd: Int32
    private var buffer: [UInt8] = []
    private(set) var eof = false

    struct ResponseHead {
        var status: Int
        var headers: [String: String]  // lower-cased names
    }

    /// - Parameters:
    ///   - receiveBufferSize: SO_RCVBUF set before connecting (a small one makes a stalled
    ///     reader back-pressure the server quickly).
    ///   - ipv6: connect to `[::1]` instead of 127.0.0.1.
    init(port: Int, receiveBufferSize: Int32? = nil, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket() failed") }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let rc: Int32
        if ipv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            addr.sin6_addr = in6addr_loopback
            rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            fd = -1
            throw TestError("connect() to \(ipv6 ? "[::1]" : "127.0.0.1"):\(port) failed: errno \(e)")
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestError("send() failed") }
            sent += n
        }
    }

    /// Sends without blocking; false once the peer has closed or reset the connection.
    func sendIfOpen(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    func get(_ path: String, host: String = "127.0.0.1", keepAlive: Bool = false) throws {
        try send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(keepAlive ? "" : "Connection: close\r\n")\r\n")
    }

    /// Reads whatever arrives within `timeout`; false on EOF or timeout with nothing read.
    @discardableResult
    func readMore(timeout: Double) -> Bool {
        guard fd >= 0, !eof else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { eof = true; return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Waits until the buffer holds `count` bytes.
    func need(_ count: Int, deadline: Date) throws {
        while buffer.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestError("timed out waiting for \(count) bytes (have \(buffer.count))") }
            if !readMore(timeout: min(left, 0.5)) && eof { throw TestError("connection closed (have \(buffer.count) bytes)") }
        }
    }

    /// Consumes and returns the bytes up to and including `delimiter`.
    func readThrough(_ delimiter: String, deadline: Date) throws -> [UInt8] {
        let d = Array(delimiter.utf8)
        var searchFrom = 0
        while true {
            if let r = Self.find(d, in: buffer, from: searchFrom) {
                let out = Array(buffer[..<r.upperBound])
                buffer.removeFirst(r.upperBound)
                return out
            }
            searchFrom = max(0, buffer.count - d.count + 1)
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestError("timed out waiting for \(delimiter.debugDescription)") }
            if !readMore(timeout: min(left, 0.5)) && eof { throw TestError("connection closed before \(delimiter.debugDescription)") }
        }
    }

    func readExactly(_ count: Int, deadline: Date) throws -> [UInt8] {
        try need(count, deadline: deadline)
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    func readHead(deadline: Date) throws -> ResponseHead {
        let raw = String(decoding: try readThrough("\r\n\r\n", deadline: deadline), as: UTF8.self)
        var lines = raw.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw TestError("empty response head") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestError("bad status line") }
        return ResponseHead(status: status, headers: Self.parseHeaders(lines))
    }

    /// A plain (Content-Length framed) response.
    func readResponse(deadline: Date) throws -> (ResponseHead, [UInt8]) {
        let head = try readHead(deadline: deadline)
        let length = Int(head.headers["content-length"] ?? "0") ?? 0
        return (head, try readExactly(length, deadline: deadline))
    }

    /// Reads until the peer closes; true if it did before the deadline.
    func waitForClose(deadline: Date) -> Bool {
        while !eof {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            _ = readMore(timeout: min(left, 0.5))
            if buffer.count > 1 << 24 { buffer.removeAll() }
        }
        return true
    }

    static func parseHeaders(_ lines: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Range<Int>? {
        guard needle.count <= hay.count else { return nil }
        var i = max(0, from)
        while i + needle.count <= hay.count {
            if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }
}
