import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test failure with a message (timeouts, closed connections, bad answers).
public struct TestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// A blocking HTTP/1.1 client over a raw loopback TCP socket, so the tests see the exact bytes
/// the server sends (MJPEG boundaries, SSE lines) and can play clients others cannot: one that never
/// reads, or sends a body in pieces, slowly, or only part of it and hangs up. Used by one task at a time.
public final class RawHTTPClient: @unchecked Sendable {
    public private(set) var fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var eof = false

    public struct ResponseHead: Sendable {
        public var status: Int
        public var headers: [String: String]  // lower-cased names
    }

    /// A whole Content-Length framed response.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]  // lower-cased names
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        /// `error.code` of an error answer.
        public var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    /// - Parameters:
    ///   - receiveBufferSize: SO_RCVBUF set before connecting (a small one makes a stalled
    ///     reader back-pressure the server quickly).
    ///   - ipv6: connect to `[::1]` instead of 127.0.0.1.
    public init(port: Int, receiveBufferSize: Int32? = nil, ipv6: Bool = false) throws {
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

    public func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    // MARK: Sending

    public func send(_ text: String) throws {
        guard send(Data(text.utf8)) else { throw TestError("send() failed") }
    }

    /// Sends bytes; false once the server has closed or reset the connection.
    @discardableResult
    public func send(_ data: Data) -> Bool {
        var sent = 0
        while sent < data.count {
            let n = data[data.startIndex + sent..<data.endIndex].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Sends without blocking; false once the peer has closed or reset the connection.
    public func sendIfOpen(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    public func get(_ path: String, host: String = "127.0.0.1", keepAlive: Bool = false) throws {
        try send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(keepAlive ? "" : "Connection: close\r\n")\r\n")
    }

    /// Sends the request line and headers (with `Connection: close`, and `Host: 127.0.0.1` unless `headers` name one).
    @discardableResult
    public func sendHead(_ method: String, _ path: String, headers: [String: String] = [:]) -> Bool {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { text += "Host: 127.0.0.1\r\n" }
        text += "Connection: close\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\r\n" }
        return send(Data((text + "\r\n").utf8))
    }

    /// One whole request on a new connection.
    public static func request(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
        body: Data? = nil, timeout: Double = 120
    ) throws -> Response {
        let client = try RawHTTPClient(port: port)
        var all = headers
        if let body { all["Content-Length"] = String(body.count) }
        client.sendHead(method, path, headers: all)
        if let body { client.send(body) }
        return try client.readResponse(timeout: timeout, bodyless: method == "HEAD")
    }

    // MARK: Receiving

    /// Reads whatever arrives within `timeout`; false on EOF or timeout with nothing read.
    @discardableResult
    public func readMore(timeout: Double) -> Bool {
        guard fd >= 0, !eof else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 {
            eof = true
            return false
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Waits until the buffer holds `count` bytes.
    public func need(_ count: Int, deadline: Date) throws {
        while buffer.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestError("timed out waiting for \(count) bytes (have \(buffer.count))") }
            if !readMore(timeout: min(left, 0.5)) && eof {
                throw TestError("connection closed (have \(buffer.count) bytes)")
            }
        }
    }

    /// Consumes and returns the bytes up to and including `delimiter`.
    public func readThrough(_ delimiter: String, deadline: Date) throws -> [UInt8] {
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
            if !readMore(timeout: min(left, 0.5)) && eof {
                throw TestError("connection closed before \(delimiter.debugDescription)")
            }
        }
    }

    public func readExactly(_ count: Int, deadline: Date) throws -> [UInt8] {
        try need(count, deadline: deadline)
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    public func readHead(deadline: Date) throws -> ResponseHead {
        let raw = String(decoding: try readThrough("\r\n\r\n", deadline: deadline), as: UTF8.self)
        var lines = raw.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw TestError("empty response head") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestError("bad status line") }
        return ResponseHead(status: status, headers: Self.parseHeaders(lines))
    }

    /// A plain (Content-Length framed) response.
    public func readResponse(deadline: Date) throws -> (ResponseHead, [UInt8]) {
        let head = try readHead(deadline: deadline)
        let length = Int(head.headers["content-length"] ?? "0") ?? 0
        return (head, try readExactly(length, deadline: deadline))
    }

    /// Reads one whole response, waiting up to `timeout` seconds; the requests say `Connection: close`, so
    /// a response the server cuts short fails. `bodyless`: the answer to HEAD, whose Content-Length
    /// describes a body that is not sent.
    public func readResponse(timeout: Double = 120, bodyless: Bool = false) throws -> Response {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let response = takeResponse(bodyless: bodyless) { return response }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw TestError("no complete response within \(timeout) s (have \(buffer.count) bytes)")
            }
            if !readMore(timeout: min(left, 1)) && eof {
                if let response = takeResponse(bodyless: bodyless) { return response }
                throw TestError(
                    "connection closed after \(buffer.count) bytes: \(String(decoding: buffer, as: UTF8.self))")
            }
        }
    }

    /// Reads one interim response head (`HTTP/1.1 100 Continue`); what follows it stays buffered.
    public func readInterim(timeout: Double = 60) throws -> String {
        String(decoding: try readThrough("\r\n\r\n", deadline: Date().addingTimeInterval(timeout)), as: UTF8.self)
    }

    /// Everything the server sends until it closes the connection (or `timeout` seconds pass).
    public func readToEnd(timeout: Double = 60) -> Data {
        let deadline = Date().addingTimeInterval(timeout)
        while !eof, deadline.timeIntervalSinceNow > 0 {
            _ = readMore(timeout: min(deadline.timeIntervalSinceNow, 0.2))
        }
        defer { buffer.removeAll() }
        return Data(buffer)
    }

    /// Reads until the peer closes (EOF or reset); true if it did before the deadline.
    public func waitForClose(deadline: Date) -> Bool {
        while !eof {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            _ = readMore(timeout: min(left, 0.5))
            if buffer.count > 1 << 24 { buffer.removeAll() }
        }
        return true
    }

    /// True when the server closes the connection (EOF or reset) within `timeout` seconds.
    public func waitForClose(timeout: Double) -> Bool {
        waitForClose(deadline: Date().addingTimeInterval(timeout))
    }

    /// A Content-Length framed response at the start of the buffer, consumed once complete.
    private func takeResponse(bodyless: Bool) -> Response? {
        guard let end = Self.find(Array("\r\n\r\n".utf8), in: buffer, from: 0) else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = Self.parseHeaders(Array(head.dropFirst()))
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        guard buffer.count - end.upperBound >= length else { return nil }
        let body = Data(buffer[end.upperBound..<end.upperBound + length])
        buffer.removeFirst(end.upperBound + length)
        return Response(status: status, headers: headers, body: body)
    }

    public static func parseHeaders(_ lines: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return headers
    }

    public static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Range<Int>? {
        guard needle.count <= hay.count else { return nil }
        var i = max(0, from)
        while i + needle.count <= hay.count {
            if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) {
                return i..<(i + needle.count)
            }
            i += 1
        }
        return nil
    }
}
