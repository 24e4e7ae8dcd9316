import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client on a raw loopback socket: it can send a body in pieces, slowly, or only
/// part of it and hang up, which higher-level clients cannot. Used by one task at a time.
final class HTTPTestClient: @unchecked Sendable {
    private(set) var fd: Int32

    struct Response {
        var status: Int
        var headers: [String: String]  // lower-cased names
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        /// `error.code` of an error answer.
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
    }

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeTestError("socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            fd = -1
            throw ServeTestError("connect() to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    /// Sends bytes; false once the server has closed or reset the connection.
    @discardableResult
    func send(_ data: Data) -> Bool {
        var sent = 0
        while sent < data.count {
            let n = data[data.startIndex + sent ..< data.endIndex].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Sends the request line and headers (with `Connection: close`, and `Host: 127.0.0.1` unless `headers` name one).
    @discardableResult
    func sendHead(_ method: String, _ path: String, headers: [String: String] = [:]) -> Bool {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { text += "Host: 127.0.0.1\r\n" }
        text += "Connection: close\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\r\n" }
        return send(Data((text + "\r\n").utf8))
    }

    /// Reads the whole response (to EOF: the requests say `Connection: close`), waiting up to `timeout` seconds.
    /// `bodyless`: the answer to HEAD, whose Content-Length describes a body that is not sent.
    func readResponse(timeout: Double = 120, bodyless: Bool = false) throws -> Response {
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let response = Self.parse(buffer, bodyless: bodyless) { return response }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw ServeTestError("no complete response within \(timeout) s (have \(buffer.count) bytes)") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                if let response = Self.parse(buffer, bodyless: bodyless) { return response }
                throw ServeTestError("connection closed after \(buffer.count) bytes: \(String(decoding: buffer, as: UTF8.self))")
            }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Reads one interim response head (`HTTP/1.1 100 Continue`), byte by byte so nothing after it is consumed.
    func readInterim(timeout: Double = 60) throws -> String {
        var head = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual(Data("\r\n\r\n".utf8)) {
            guard deadline.timeIntervalSinceNow > 0 else { throw ServeTestError("no interim response within \(timeout) s") }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            guard recv(fd, &byte, 1, 0) == 1 else { throw ServeTestError("connection closed before an interim response") }
            head.append(byte)
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Everything the server sends until it closes the connection (or `timeout` seconds pass).
    func readToEnd(timeout: Double = 60) -> Data {
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while deadline.timeIntervalSinceNow > 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
        }
        return buffer
    }

    /// True when the server closes the connection (EOF or reset) within `timeout` seconds.
    func waitForClose(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while deadline.timeIntervalSinceNow > 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
        return false
    }

    /// A Content-Length framed response in `buffer`, once complete.
    private static func parse(_ buffer: Data, bodyless: Bool = false) -> Response? {
        guard let end = buffer.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let body = buffer[end.upperBound...]
        guard body.count >= length else { return nil }
        return Response(status: status, headers: headers, body: Data(body.prefix(length)))
    }

    /// One whole request on a new connection.
    static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil,
                        timeout: Double = 120) throws -> Response {
        let client = try HTTPTestClient(port: port)
        var all = headers
        if let body { all["Content-Length"] = String(body.count) }
        client.sendHead(method, path, headers: all)
        if let body { client.send(body) }
        return try client.readResponse(timeout: timeout, bodyless: method == "HEAD")
    }
}
