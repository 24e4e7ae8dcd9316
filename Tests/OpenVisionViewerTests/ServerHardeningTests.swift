import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionViewer

/// Issue 14 ("Hardening"): each test reproduces a finding against the viewer server. Deadlines
/// are generous (slow CI, AddressSanitizer); what is asserted are events and counts.
@Suite(.serialized)
struct ServerHardeningTests {
    /// Finding 1: a client that pipelines requests and never reads made the server queue every
    /// response (10,000 snapshots: +950 MB). Now the server stops answering, and so stops
    /// reading, while the connection's output is not flushed.
    @Test func pipelinedRequestsFromANonReadingClientAreNotQueued() async throws {
        var patient = LiveViewerServer.Configuration()
        patient.writeStallTimeout = .seconds(3600)
        let server = try await startedServer(patient)
        let jpeg = padded(try loadJPEG("frame-a.jpg"), to: 150_000)
        server.publish(frame: PreviewFrame(jpeg: jpeg, width: 320, height: 240, index: 1, timestamp: 0))

        let requests = 400  // 60 MB of responses if queued
        let client = try RawHTTPClient(port: server.boundPort, receiveBufferSize: 4096)
        let rssBefore = residentBytes()
        try client.send(String(repeating: "GET /snapshot.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: requests))

        try await waitFor("the server to hold back a request") { server.hub.events.deferredRequests >= 1 }
        var largest = 0
        for _ in 0..<20 {
            largest = max(largest, await server.hub.connectionBufferedBytes().max() ?? 0)
            try await Task.sleep(for: .milliseconds(25))
        }
        let rssGrowth = residentBytes() - rssBefore
        print(
            "pipelined \(requests) snapshots, not reading: NIO buffered at most \(largest) bytes, RSS +\(rssGrowth / 1_000_000) MB"
        )
        // NIO's default high-water mark (64 KiB) plus the response that crossed it.
        #expect(largest <= 64 * 1024 + jpeg.count + 4096, "responses are queued for a client that does not read")
        // (RSS is printed, not asserted: other suites run concurrently in this process.)

        // Reading again resumes the pipeline: every response arrives, whole and in order.
        for i in 0..<requests {
            let (head, body) = try client.readResponse(deadline: deadline(60))
            #expect(head.status == 200)
            if body != jpeg {
                Issue.record("response \(i) carries the wrong bytes")
                break
            }
        }
        await server.stop()
    }

    /// Finding 1, abusers: a connection whose output makes no progress for `writeStallTimeout`
    /// is closed, a plain-request pipeline and a stream alike.
    @Test func connectionsWhoseWritesStallAreClosed() async throws {
        var quick = LiveViewerServer.Configuration()
        quick.writeStallTimeout = .milliseconds(500)
        let server = try await startedServer(quick)
        let jpeg = padded(try loadJPEG("frame-b.jpg"), to: 300_000)
        server.publish(frame: PreviewFrame(jpeg: jpeg, width: 320, height: 240, index: 1, timestamp: 0))

        let pipeliner = try RawHTTPClient(port: server.boundPort, receiveBufferSize: 4096)
        try pipeliner.send(String(repeating: "GET /snapshot.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 50))
        let viewer = try RawHTTPClient(port: server.boundPort, receiveBufferSize: 4096)
        try viewer.get("/stream.mjpg")
        // Keep publishing: the kernel's socket buffers absorb the first frames.
        var index = 2
        try await waitFor("both stalled connections to be closed", timeout: 60) {
            index += 1
            if index % 20 == 0 {
                server.publish(frame: PreviewFrame(jpeg: jpeg, width: 320, height: 240, index: index, timestamp: 0))
            }
            return server.hub.events.writeStalls >= 2 && server.hub.connectionCount == 0
        }
        #expect(server.hub.events.writeStalls == 2)
        #expect(server.streamingClientCount == 0)
        #expect(pipeliner.waitForClose(deadline: deadline(20)))
        #expect(viewer.waitForClose(deadline: deadline(20)))
        await server.stop()
    }

    /// Finding 2: the loopback check accepted any Host starting with `127.` (DNS rebinding).
    @Test func hostHeaderMustNameLoopbackExactly() async throws {
        let server = try await startedServer()
        let port = server.boundPort
        let allowed = [
            "127.0.0.1", "127.0.0.1:\(port)", "localhost", "LocalHost:\(port)", "[::1]", "[::1]:\(port)",
            "127.4.5.6:80", "[::ffff:127.0.0.1]:\(port)",
        ]
        let refused = [
            "127.0.0.1.evil.example", "127.0.0.1.evil.example:\(port)", "localhost.evil.example",
            "evil.localhost", "127.evil.example", "127.1", "0x7f.0.0.1", "::1", "[::2]:\(port)",
            "127.0.0.1:99999", "127.0.0.1:", "127.0.0.1:80x", "localhost:\(port)@evil.example", "",
            "evil.example:\(port)", "128.0.0.1",
        ]
        for host in allowed + refused {
            let c = try RawHTTPClient(port: port)
            try c.get("/health", host: host)
            let status = try c.readResponse(deadline: deadline(20)).0.status
            #expect(status == (allowed.contains(host) ? 200 : 403), "Host: \(host)")
        }
        await server.stop()
    }

    /// Finding 8: silent sockets held slots forever and nothing capped connections. Now a
    /// connection past `maxConnections` gets 503 and is closed, a silent or trickling one is
    /// closed after `headerTimeout`, an idle keep-alive one after `idleTimeout`; streams stay.
    @Test func silentConnectionsTimeOutAndTheCapRefusesWith503() async throws {
        var limits = LiveViewerServer.Configuration()
        limits.maxConnections = 4
        limits.headerTimeout = .milliseconds(600)
        limits.idleTimeout = .milliseconds(800)
        let server = try await startedServer(limits)
        let port = server.boundPort

        // The cap, with four streams holding the slots (streams never time out, so this part
        // does not race the short timeouts on a slow machine).
        let streams = try (0..<4).map { _ in try RawHTTPClient(port: port) }
        for c in streams { try c.get("/events") }
        try await waitFor("four streams") { server.streamingClientCount == 4 }
        let extra = try RawHTTPClient(port: port)
        try extra.get("/health")
        let (refusal, body) = try extra.readResponse(deadline: deadline(20))
        #expect(refusal.status == 503)
        #expect(String(decoding: body, as: UTF8.self).contains("too many connections"))
        #expect(extra.waitForClose(deadline: deadline(20)), "a refused connection is closed")
        #expect(server.hub.events.refusedConnections >= 1)
        // Streams whose clients leave free their slots at once, even with nothing published
        // (the server keeps reading a streaming connection, so it sees the EOF).
        for c in streams { c.close() }
        try await waitFor("the streams to go") { server.hub.connectionCount == 0 }

        // Silent connections are closed for not sending a request head; the slots come back.
        let silent = try (0..<4).map { _ in try RawHTTPClient(port: port) }
        for c in silent { #expect(c.waitForClose(deadline: deadline(30)), "silent connection left open") }
        try await waitFor("the slots to be freed") { server.hub.connectionCount == 0 }
        #expect(server.hub.events.headerTimeouts >= 4)

        // A stream outlives both timeouts; a keep-alive connection idles out; a client that
        // trickles its head a byte at a time is closed by the header timeout.
        let stream = try RawHTTPClient(port: port)
        try stream.get("/events")
        #expect(try stream.readHead(deadline: deadline(20)).status == 200)
        try await waitFor("the events client") { server.streamingClientCount == 1 }
        let keepAlive = try RawHTTPClient(port: port)
        try keepAlive.get("/health", keepAlive: true)
        #expect(try keepAlive.readResponse(deadline: deadline(20)).0.status == 200)
        #expect(keepAlive.waitForClose(deadline: deadline(30)), "idle keep-alive connection left open")
        #expect(server.hub.events.idleTimeouts >= 1)

        let trickle = try RawHTTPClient(port: port)
        let headersBefore = server.hub.events.headerTimeouts
        var sent = 0
        for byte in "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + String(repeating: "a", count: 10_000) {
            guard trickle.sendIfOpen(String(byte)), server.hub.events.headerTimeouts == headersBefore else { break }
            sent += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(trickle.waitForClose(deadline: deadline(30)), "trickling connection left open after \(sent) bytes")
        #expect(server.hub.events.headerTimeouts == headersBefore + 1)

        #expect(server.streamingClientCount == 1, "the stream was closed by an idle timeout")
        server.publish(overlay: sampleOverlay(3))
        let event = String(decoding: try stream.readThrough("}\n\n", deadline: deadline(20)), as: UTF8.self)
        #expect(event.contains("\"frameIndex\":3"))
        let ok = try RawHTTPClient(port: port)
        try ok.get("/health")
        #expect(try ok.readResponse(deadline: deadline(20)).0.status == 200)
        await server.stop()
    }

    /// `maxRequestHeadSize` bounds the request target plus headers: a larger head gets 431
    /// (Request Header Fields Too Large) and the connection is closed; one under it is served; a
    /// malformed request still gets 400.
    @Test func oversizedRequestHeadsAreRefused() async throws {
        var small = LiveViewerServer.Configuration()
        small.maxRequestHeadSize = 1024
        let server = try await startedServer(small)
        let fits = try RawHTTPClient(port: server.boundPort)
        try fits.send(
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: \(String(repeating: "a", count: 700))\r\nConnection: close\r\n\r\n"
        )
        #expect(try fits.readResponse(deadline: deadline(20)).0.status == 200)
        for request in [
            "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: \(String(repeating: "a", count: 2000))\r\n\r\n",
            "GET /\(String(repeating: "a", count: 2000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ] {
            let big = try RawHTTPClient(port: server.boundPort)
            try big.send(request)
            #expect(try big.readResponse(deadline: deadline(20)).0.status == 431)
            #expect(big.waitForClose(deadline: deadline(20)))
        }
        let malformed = try RawHTTPClient(port: server.boundPort)
        try malformed.send("GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n")
        #expect(try malformed.readResponse(deadline: deadline(20)).0.status == 400)
        #expect(malformed.waitForClose(deadline: deadline(20)))
        await server.stop()
    }

    /// Finding 7: a page had no way to learn that the source ended or the server stopped.
    /// The server now sends an SSE `status` event, to current clients, to new ones, and as the
    /// last event before `stop()` closes the stream.
    @Test func eventsClientsLearnThatTheSourceEnded() async throws {
        let server = try await startedServer()
        server.publish(overlay: sampleOverlay(1))
        let current = try RawHTTPClient(port: server.boundPort)
        try current.get("/events")
        #expect(try current.readHead(deadline: deadline(20)).status == 200)
        _ = try current.readThrough("}\n\n", deadline: deadline(20))  // the primed overlay
        server.publish(status: ViewerStatus(state: .ended, detail: "end of file"))
        let ended = String(decoding: try current.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
        #expect(ended == "event: status\ndata: {\"detail\":\"end of file\",\"state\":\"ended\"}\n\n")

        let later = try RawHTTPClient(port: server.boundPort)
        try later.get("/events")
        #expect(try later.readHead(deadline: deadline(20)).status == 200)
        _ = try later.readThrough("retry: 1000\n\n", deadline: deadline(20))
        let primed = String(decoding: try later.readThrough("\"ended\"}\n\n", deadline: deadline(20)), as: UTF8.self)
        #expect(primed.hasPrefix("data: {") && primed.contains("\"frameIndex\":1"), "latest overlay first")
        #expect(primed.hasSuffix("event: status\ndata: {\"detail\":\"end of file\",\"state\":\"ended\"}\n\n"))

        await server.stop()
        for c in [current, later] {
            let last = String(decoding: try c.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
            #expect(last.contains("event: status") && last.contains("\"ended\""), "the final event repeats the end")
            #expect(c.waitForClose(deadline: deadline(20)))
        }
    }

    @Test func stopTellsEventsClientsTheServerStopped() async throws {
        let server = try await startedServer()
        let c = try RawHTTPClient(port: server.boundPort)
        try c.get("/events")
        #expect(try c.readHead(deadline: deadline(20)).status == 200)
        try await waitFor("the events client") { server.streamingClientCount == 1 }
        await server.stop()
        _ = try c.readThrough("retry: 1000\n\n", deadline: deadline(20))
        let last = String(decoding: try c.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
        #expect(last == "event: status\ndata: {\"detail\":\"server stopped\",\"state\":\"stopped\"}\n\n")
        #expect(c.waitForClose(deadline: deadline(20)))
    }

    /// A source that fails: its error is the last event viewers get, not "server stopped".
    @Test func aFailedSourceIsTheFinalStatus() async throws {
        let server = try await startedServer()
        let c = try RawHTTPClient(port: server.boundPort)
        try c.get("/events")
        #expect(try c.readHead(deadline: deadline(20)).status == 200)
        try await waitFor("the events client") { server.streamingClientCount == 1 }
        server.publish(status: ViewerStatus(state: .failed, detail: "cannot reopen rtsp://cam/1"))
        _ = try c.readThrough("\"failed\"}\n\n", deadline: deadline(20))
        await server.stop()
        let last = String(decoding: try c.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
        #expect(last == "event: status\ndata: {\"detail\":\"cannot reopen rtsp://cam/1\",\"state\":\"failed\"}\n\n")
        #expect(c.waitForClose(deadline: deadline(20)))
    }

    /// Finding 7, the page: it listens for `status`, shows `ended`, and reloads the preview
    /// (with a cache-buster) when the event stream reopens or the preview stalls.
    @Test func viewerPageReconnectsThePreviewAndShowsTheEnd() throws {
        let html = viewerPageHTML
        #expect(html.contains("addEventListener(\"status\""))
        #expect(html.contains("\"stream.mjpg?t=\" + Date.now()"))
        #expect(html.contains("function reloadPreview"))
        #expect(html.contains("es.onopen") && html.contains("reloadPreview("))
        #expect(html.contains("EventSource.CLOSED"), "a refused event stream is retried by the page")
        #expect(html.contains("source ended"))
    }

    /// The `--serve` value: ports outside 0...65535 were silently truncated (99999 bound
    /// 34463), `[::1]:P` bound 127.0.0.1.
    @Test func listenAddressesAreParsedStrictly() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8081") == ListenAddress(host: "127.0.0.1", port: 8081))
        #expect(try ListenAddress(parsing: "8081") == ListenAddress(host: "127.0.0.1", port: 8081))
        #expect(try ListenAddress(parsing: ":0") == ListenAddress(host: "127.0.0.1", port: 0))
        #expect(try ListenAddress(parsing: "0.0.0.0:65535") == ListenAddress(host: "0.0.0.0", port: 65535))
        #expect(try ListenAddress(parsing: "localhost") == ListenAddress(host: "localhost", port: 8080))
        #expect(try ListenAddress(parsing: "[::1]:9000") == ListenAddress(host: "::1", port: 9000))
        #expect(try ListenAddress(parsing: "[::]") == ListenAddress(host: "::", port: 8080))
        #expect(ListenAddress(host: "::1", port: 9000).description == "[::1]:9000")
        for bad in [
            "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:", "127.0.0.1:80x", "::1:9000", "[::1", "[::1]9000",
            "[]:80", "", "65536", "host:1:2",
        ] {
            #expect(throws: LiveViewerServerError.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
    }

    @Test func outOfRangePortIsRefusedAndBracketedIPv6BindsIPv6() async throws {
        let tooBig = LiveViewerServer(port: 99999)
        await #expect(throws: LiveViewerServerError.self) { try await tooBig.start() }
        #expect(tooBig.boundPort == 0)

        let v6 = LiveViewerServer(host: "[::1]", port: 0)
        try await v6.start()
        let c = try RawHTTPClient(port: v6.boundPort, ipv6: true)
        try c.get("/health", host: "[::1]:\(v6.boundPort)")
        #expect(try c.readResponse(deadline: deadline(20)).0.status == 200)
        #expect(throws: (any Error).self, "bound IPv6 only") { _ = try RawHTTPClient(port: v6.boundPort) }
        await v6.stop()
    }
}
