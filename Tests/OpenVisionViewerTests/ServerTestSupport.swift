import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionViewer

// Helpers shared by the server test suites.

let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")

func loadJPEG(_ name: String) throws -> [UInt8] {
    let bytes = try [UInt8](Data(contentsOf: resources.appendingPathComponent(name)))
    #expect(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == [0xFF, 0xD9])
    return bytes
}

/// A valid JPEG of about `size` bytes: `jpeg` with comment (COM) segments after SOI.
func padded(_ jpeg: [UInt8], to size: Int) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    var remaining = size - jpeg.count
    while remaining > 4 {
        let payload = min(65533, remaining - 4)
        out += [0xFF, 0xFE, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
        out += [UInt8](repeating: 0x20, count: payload)
        remaining -= payload + 4
    }
    return out + jpeg.dropFirst(2)
}

func deadline(_ seconds: Double) -> Date { Date().addingTimeInterval(seconds) }

func startedServer(_ configuration: LiveViewerServer.Configuration = .init()) async throws -> LiveViewerServer {
    let server = LiveViewerServer(port: 0, configuration: configuration)
    try await server.start()
    #expect(server.boundPort > 0)
    return server
}

func waitFor(_ what: String, timeout: Double = 20, _ condition: () -> Bool) async throws {
    let end = deadline(timeout)
    while !condition() {
        guard Date() < end else { throw TestError("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kb * 1024
}

/// One MJPEG part: its headers and JPEG bytes. The stream is
/// `--B CRLF (headers CRLF CRLF jpeg CRLF --B CRLF)*`.
func readPart(_ c: RawHTTPClient, boundary: String, deadline d: Date) throws -> ([String: String], [UInt8]) {
    let headText = String(decoding: try c.readThrough("\r\n\r\n", deadline: d), as: UTF8.self)
    let headers = RawHTTPClient.parseHeaders(headText.components(separatedBy: "\r\n"))
    guard let length = Int(headers["content-length"] ?? "") else {
        throw TestError("part without Content-Length: \(headText)")
    }
    let jpeg = try c.readExactly(length, deadline: d)
    let trailer = try c.readExactly(boundary.utf8.count + 6, deadline: d)
    #expect(trailer == Array("\r\n--\(boundary)\r\n".utf8), "part not followed by the boundary")
    return (headers, jpeg)
}

func sampleOverlay(_ index: Int) -> OverlayUpdate {
    OverlayUpdate(
        frameIndex: index, timestamp: Double(index) / 30,
        items: [
            .box(x: 0.15, y: 0.08, width: 0.35, height: 0.6, color: "#00e676", label: "dog 0.96"),
            .init(points: [[0.1, 0.9], [0.5, 0.95], [0.9, 0.9]], closed: false, color: "#ff00ff", label: nil),
        ],
        stats: .init(captureFPS: 30, analysedFPS: 14.5, dropped: index, latencyP50Ms: 21.5, latencyP99Ms: 48.25))
}

/// A count shared between a test and the tasks it starts.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
