import Foundation
import OpenVisionServer
import Synchronization
import Testing
import OpenVision

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
            server.publish(frame: PreviewFrame(jpeg: [UInt8](jpeg), width: 640, height: 480, index: i, timestamp: Double(i) / 30))
            i += 1
            try await Task.sleep(for: .milliseconds(33))
        }
    }

    static func waitUntil(seconds: Double, _ condition: @Sendable () -> Bool) async throws {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(100)) }
    }

    @Test func mjpegStreamWithReconnect() async throws {
        let first = LiveViewerServer(host: "127.0.0.1", port: 0)
        try await first.start()
        let port = first.boundPort
        let stopFeeding = StopFlag()
        let feeder = Task { try await Self.feed(first, stop: stopFeeding) }
        var options = CaptureOptions()
        options.readTimeout = .seconds(2)
        options.reconnectFor = .seconds(10)
        let analyzer = LiveAnalyzer(source: .stream(URL(string: "http://127.0.0.1:\(port)/stream.mjpg")!), options: options,
                                    requests: [DetectBarcodesRequest(symbologies: [.qr])])
        let payloads = Mutex<[String]>([])
        let consumer = Task {
            for try await result in analyzer {
                if let code = result.results(for: DetectBarcodesRequest.self)?.first?.payloadString {
                    payloads.withLock { $0.append(code) }
                }
            }
        }
        // Let it run, then kill the server and bring a new one up on the same port.
        try await Self.waitUntil(seconds: 20) { payloads.withLock { $0.count } > 5 }
        let before = payloads.withLock { $0.count }
        #expect(before > 5, "frames decoded from the stream before the restart")
        stopFeeding.set()
        _ = await feeder.result
        await first.stop()
        try await Task.sleep(for: .milliseconds(500))
        let second = LiveViewerServer(host: "127.0.0.1", port: port)
        try await second.start()
        let stopSecond = StopFlag()
        let feeder2 = Task { try await Self.feed(second, stop: stopSecond, from: 100) }
        try await Self.waitUntil(seconds: 30) { analyzer.stats().reconnects >= 1 && payloads.withLock { $0.count } > before + 5 }
        let stats = analyzer.stats()
        #expect(stats.reconnects >= 1, "\(stats)")
        #expect(payloads.withLock { $0.count } > before + 5, "frames kept coming after the restart")
        #expect(payloads.withLock { $0.allSatisfy { $0 == "moving code" } })
        // Now the stream dies for good: the analyzer gives up after its reconnect window with an error.
        stopSecond.set()
        _ = await feeder2.result
        await second.stop()
        let clock = ContinuousClock()
        let stopped = clock.now
        let ending = await consumer.result
        #expect(clock.now - stopped < .seconds(40))
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
        let analyzer = LiveAnalyzer(source: .stream(URL(string: "http://127.0.0.1:9/stream.mjpg")!), options: options,
                                    requests: [DetectBarcodesRequest()])
        await #expect(throws: VisionError.self) { for try await _ in analyzer {} }
        #expect(analyzer.stats().state == .failed)
    }
}
