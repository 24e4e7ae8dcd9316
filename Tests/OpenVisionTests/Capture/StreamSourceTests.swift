import Foundation
import OpenVision
import OpenVisionViewer
import Synchronization
import Testing

/// A network source: an HTTP MJPEG stream served on loopback by the live viewer server,
/// including a kill-and-restart that the pipeline must survive.
@Suite(.serialized) struct StreamSourceTests {
    final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// Publishes frames with the moving code to `server` at ~30 fps until `stop` is set.
    static func feed(_ server: LiveViewerServer, stop: StopFlag, from start: Int = 0) async throws {
        var i = start
        while !stop.isSet {
            let jpeg = try LiveCaptureTests.frame(i % 60).encoded(as: .jpeg, quality: 85)
            server.publish(
                frame: PreviewFrame(jpeg: [UInt8](jpeg), width: 640, height: 480, index: i, timestamp: Double(i) / 30))
            i += 1
            try await Task.sleep(for: .milliseconds(33))
        }
    }

    static func waitUntil(seconds: Double, _ condition: @Sendable () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(100)) }
    }

    /// Starts a viewer server (on `port`, 0 = any) fed with the moving code, and an analyzer on its stream.
    static func streamingServer(port: Int = 0) async throws -> (LiveViewerServer, StopFlag, Task<Void, any Error>) {
        let server = LiveViewerServer(host: "127.0.0.1", port: port)
        try await server.start()
        let stop = StopFlag()
        let feeder = Task { try await Self.feed(server, stop: stop, from: port == 0 ? 0 : 100) }
        return (server, stop, feeder)
    }

    /// Payloads decoded so far, shared with the consuming task.
    final class Payloads: Sendable {
        private let items = Mutex<[String]>([])
        func append(_ code: String) { items.withLock { $0.append(code) } }
        var count: Int { items.withLock { $0.count } }
        var all: [String] { items.withLock { $0 } }
    }

    static func consume(_ analyzer: LiveAnalyzer, into payloads: Payloads) -> Task<Void, any Error> {
        Task {
            for try await result in analyzer {
                if let code = result.results(for: DetectBarcodesRequest.self)?.first?.payloadString {
                    payloads.append(code)
                }
            }
        }
    }

    /// The server is killed and a new one comes up on the same port: the pipeline reconnects and
    /// frames keep coming. The reconnect window is long and the waits generous (events and counts,
    /// not a time budget): under AddressSanitizer on a loaded machine one FFmpeg open can take seconds.
    @Test func mjpegStreamWithReconnect() async throws {
        // A port below Linux's ephemeral range (32768-60999): between the two servers no outgoing connection of
        // another test can be given it as its local port (which made the rebind fail with EADDRINUSE).
        var started: (LiveViewerServer, StopFlag, Task<Void, any Error>)?
        for _ in 0..<50 where started == nil {
            started = try? await Self.streamingServer(port: Int.random(in: 20_000..<32_000))
        }
        let (first, stopFeeding, feeder) = try #require(started, "no free port in 20000..<32000")
        let port = first.boundPort
        var options = CaptureOptions()
        options.readTimeout = .seconds(2)
        options.reconnectFor = .seconds(600)
        let analyzer = LiveAnalyzer(
            source: .stream(URL(string: "http://127.0.0.1:\(port)/stream.mjpg")!), options: options,
            requests: [DetectBarcodesRequest(symbologies: [.qr])])
        let payloads = Payloads()
        let consumer = Self.consume(analyzer, into: payloads)
        defer { consumer.cancel() }
        try await Self.waitUntil(seconds: 300) { payloads.count > 5 }
        let before = payloads.count
        #expect(before > 5, "frames decoded from the stream before the restart")
        stopFeeding.set()
        _ = await feeder.result
        await first.stop()
        var restarted: (LiveViewerServer, StopFlag, Task<Void, any Error>)?
        for _ in 0..<100 where restarted == nil {  // a listener another test left on it goes away with its test
            restarted = try? await Self.streamingServer(port: port)
            if restarted == nil { try await Task.sleep(for: .seconds(1)) }
        }
        let (second, stopSecond, feeder2) = try #require(restarted, "port \(port) stayed taken")
        try await Self.waitUntil(seconds: 300) { analyzer.stats().reconnects >= 1 && payloads.count > before + 5 }
        let stats = analyzer.stats()
        #expect(stats.reconnects >= 1, "\(stats)")
        #expect(payloads.count > before + 5, "frames kept coming after the restart")
        #expect(payloads.all.allSatisfy { $0 == "moving code" })
        consumer.cancel()
        _ = await consumer.result
        stopSecond.set()
        _ = await feeder2.result
        await second.stop()
    }

    /// A stream that dies for good: after its reconnect window the analyzer ends with an I/O error.
    @Test func deadStreamEndsAfterItsReconnectWindow() async throws {
        let (server, stopFeeding, feeder) = try await Self.streamingServer()
        var options = CaptureOptions()
        options.readTimeout = .seconds(2)
        options.reconnectFor = .seconds(3)
        let analyzer = LiveAnalyzer(
            source: .stream(URL(string: "http://127.0.0.1:\(server.boundPort)/stream.mjpg")!),
            options: options, requests: [DetectBarcodesRequest(symbologies: [.qr])])
        let payloads = Payloads()
        let consumer = Self.consume(analyzer, into: payloads)
        try await Self.waitUntil(seconds: 300) { payloads.count > 2 }
        #expect(payloads.count > 2, "frames decoded before the stream died")
        stopFeeding.set()
        _ = await feeder.result
        await server.stop()
        let ending = await consumer.result  // ends by itself once the window has passed
        if case .failure(let error) = ending {
            #expect((error as? VisionError)?.code == .ioError, "\(error)")
        } else {
            Issue.record("the dead stream should end with an error")
        }
        #expect(analyzer.stats().state == .failed)
    }

    @Test func unreachableStreamFails() async throws {
        var options = CaptureOptions()
        options.reconnectFor = .seconds(1)
        options.readTimeout = .seconds(1)
        // Port 9 on loopback: nothing listens there.
        let analyzer = LiveAnalyzer(
            source: .stream(URL(string: "http://127.0.0.1:9/stream.mjpg")!), options: options,
            requests: [DetectBarcodesRequest()])
        await #expect(throws: VisionError.self) { for try await _ in analyzer {} }
        #expect(analyzer.stats().state == .failed)
    }
}
