import Foundation
import Synchronization

/// A PostgreSQL impostor on 127.0.0.1 (plain sockets, a thread per connection) for the tests of what a
/// broken or strict server does to a client: it reads each connection's startup message and answers it
/// as `mode` says.
final class FakePostgresServer: Sendable {
    enum Mode: Sendable {
        /// AuthenticationOk, BackendKeyData and ReadyForQuery, then the socket is closed: the connection
        /// PostgresNIO has just reported ready is gone before its first statement (what a server shutting
        /// down between the handshake and the first query looks like).
        case readyThenClose
        /// AuthenticationSASL offering SCRAM-SHA-256, as a server with `scram-sha-256` in pg_hba.conf asks
        /// first; the connection is closed when the client closes or after 5 s.
        case scram
    }

    let port: Int
    let mode: Mode
    private let listener: Int32
    private let accepted = Atomic<Int>(0)

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .sequentiallyConsistent) }

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(mode: Mode) throws {
        self.mode = mode
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 64) == 0
            }
        }
        guard bound else {
            close(fd)
            throw Failure(description: "bind/listen failed: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "fake-postgres"
        thread.start()
    }

    /// Stops accepting (the accept loop ends once the listening socket is shut down).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            accepted.add(1, ordering: .sequentiallyConsistent)
            let thread = Thread { [mode] in Self.serve(client, mode) }
            thread.start()
        }
    }

    private static func serve(_ fd: Int32, _ mode: Mode) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The startup message: Int32 length (itself included), then the protocol version and parameters.
        guard let head = readExactly(fd, 4) else { return }
        let length = Int(head.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) })
        guard (8...10_000).contains(length), readExactly(fd, length - 4) != nil else { return }
        switch mode {
        case .readyThenClose:
            var reply = message("R", int32(0))  // AuthenticationOk
            reply += message("K", int32(4242) + int32(1234))  // BackendKeyData: process id, secret
            reply += message("Z", [UInt8(ascii: "I")])  // ReadyForQuery, idle
            write(fd, reply)
        case .scram:
            write(fd, message("R", int32(10) + Array("SCRAM-SHA-256".utf8) + [0, 0]))  // AuthenticationSASL
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) > 0 {}  // until the client gives up (or 5 s)
        }
    }

    private static func int32(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    private static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
        [type.asciiValue!] + int32(Int32(body.count + 4)) + body
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    private static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = buffer[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            offset += n
        }
        return buffer
    }
}
