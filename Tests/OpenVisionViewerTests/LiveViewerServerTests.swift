import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionViewer

@Suite(.serialized)
struct LiveViewerServerTests {
    @Test func healthPageSnapshotAndErrors() async throws {
        let server = try await startedServer()
        let port = server.boundPort

        // Health, on one keep-alive connection followed by the page.
        let c = try RawHTTPClient(port: port)
        try c.get("/health", keepAlive: true)
        let (h, body) = try c.readResponse(deadline: deadline(20))
        #expect(h.status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "ok")
        try c.get("/")
        let (p, page) = try c.readResponse(deadline: deadline(20))
        #expect(p.status == 200)
        #expect(p.headers["content-type"]?.hasPrefix("text/html") == true)
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.contains("<canvas") && html.contains("stream.mjpg") && html.contains("EventSource(\"events\")"))
        #expect(html.contains("(1 - p[1]) * H"))
        #expect(!html.contains("http://") && !html.contains("https://"), "the page must not load external assets")

        // Snapshot: 503 before any frame, then the latest frame's bytes.
        let s0 = try RawHTTPClient(port: port)
        try s0.get("/snapshot.jpg")
        #expect(try s0.readResponse(deadline: deadline(20)).0.status == 503)
        let a = try loadJPEG("frame-a.jpg")
        let b = try loadJPEG("frame-b.jpg")
        server.publish(frame: PreviewFrame(jpeg: a, width: 320, height: 240, index: 1, timestamp: 0.1))
        server.publish(frame: PreviewFrame(jpeg: b, width: 320, height: 240, index: 2, timestamp: 0.2))
        let s1 = try RawHTTPClient(port: port)
        try s1.get("/snapshot.jpg")
        let (sh, snap) = try s1.readResponse(deadline: deadline(20))
        #expect(sh.status == 200 && sh.headers["content-type"] == "image/jpeg")
        #expect(snap == b)

        let n = try RawHTTPClient(port: port)
        try n.get("/nope")
        #expect(try n.readResponse(deadline: deadline(20)).0.status == 404)
        let post = try RawHTTPClient(port: port)
        try post.send("POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(try post.readResponse(deadline: deadline(20)).0.status == 405)
        // DNS-rebinding guard: a foreign Host header is refused on a loopback server.
        let evil = try RawHTTPClient(port: port)
        try evil.get("/snapshot.jpg", host: "evil.example:\(port)")
        #expect(try evil.readResponse(deadline: deadline(20)).0.status == 403)
        let local = try RawHTTPClient(port: port)
        try local.get("/health", host: "localhost:\(port)")
        #expect(try local.readResponse(deadline: deadline(20)).0.status == 200)
        await server.stop()
    }

    @Test func mjpegStreamDeliversJPEGParts() async throws {
        let server = try await startedServer()
        let frames = [try loadJPEG("frame-a.jpg"), try loadJPEG("frame-b.jpg"), try loadJPEG("frame-c.jpg")]
        server.publish(frame: PreviewFrame(jpeg: frames[0], width: 320, height: 240, index: 0, timestamp: 0))

        let c = try RawHTTPClient(port: server.boundPort)
        try c.get("/stream.mjpg")
        let head = try c.readHead(deadline: deadline(20))
        #expect(head.status == 200)
        let type = try #require(head.headers["content-type"])
        #expect(type.hasPrefix("multipart/x-mixed-replace"))
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        #expect(head.headers["transfer-encoding"] == nil, "the stream must not be chunked")
        #expect(try c.readExactly(boundary.utf8.count + 4, deadline: deadline(20)) == Array("--\(boundary)\r\n".utf8))

        // A new client gets the latest frame (0) at once, before anything else is published (read first: under
        // AddressSanitizer the publisher below could otherwise replace it before it is sent).
        var indices: [Int] = []
        func readOne() throws {
            let (headers, jpeg) = try readPart(c, boundary: boundary, deadline: deadline(120))
            #expect(headers["content-type"] == "image/jpeg")
            #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2) == [0xFF, 0xD9])
            let index = try #require(Int(headers["x-frame-index"] ?? ""))
            #expect(jpeg == frames[index % 3], "part \(index) carries the wrong JPEG")
            #expect(headers["x-frame-size"] == "320x240")
            indices.append(index)
        }
        try readOne()
        // Publish at ~100 fps from a task while reading, until the reader has its parts (however slow the machine).
        let publisher = Task {
            var i = 1
            while !Task.isCancelled {
                server.publish(
                    frame: PreviewFrame(
                        jpeg: frames[i % 3], width: 320, height: 240, index: i, timestamp: Double(i) / 100))
                i += 1
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        for _ in 0..<5 { try readOne() }
        publisher.cancel()
        #expect(indices.first == 0, "a new client gets the latest frame at once")
        #expect(
            indices == indices.sorted() && Set(indices).count == indices.count, "frames arrive in order: \(indices)")
        await server.stop()
    }

    @Test func eventsStreamCarriesOverlayJSON() async throws {
        let server = try await startedServer()
        server.publish(overlay: sampleOverlay(7))

        let c = try RawHTTPClient(port: server.boundPort)
        try c.get("/events")
        let head = try c.readHead(deadline: deadline(20))
        #expect(head.status == 200)
        #expect(head.headers["content-type"]?.hasPrefix("text/event-stream") == true)
        try await waitFor("the events client") { server.streamingClientCount == 1 }

        var decoded: [OverlayUpdate] = []
        var published = 8
        var nanStats = sampleOverlay(99)
        nanStats.stats.latencyP99Ms = .nan
        while decoded.count < 3 {
            let event = String(decoding: try c.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
            let dataLines = event.split(separator: "\n").filter { $0.hasPrefix("data: ") }
            if dataLines.isEmpty { continue }  // `retry:` preamble
            #expect(dataLines.count == 1, "one data line per update")
            let json = Data(dataLines[0].dropFirst(6).utf8)
            decoded.append(try JSONDecoder().decode(OverlayUpdate.self, from: json))
            if published == 8 {
                server.publish(overlay: sampleOverlay(8))
                published += 1
            } else if published == 9 {
                server.publish(overlay: nanStats)
                published += 1
            }
        }
        #expect(decoded[0] == sampleOverlay(7))
        #expect(decoded[1] == sampleOverlay(8))
        #expect(decoded[2].frameIndex == 99 && decoded[2].stats.latencyP99Ms == 0, "NaN is sent as 0")
        let expected: [[Double]] = [[0.15, 0.08], [0.5, 0.08], [0.5, 0.68], [0.15, 0.68]]
        #expect(zip(decoded[0].items[0].points.joined(), expected.joined()).allSatisfy { abs($0 - $1) < 1e-9 })
        await server.stop()
    }

    /// A heat-map image item (a saliency map as a small PNG) travels in the overlay event as a data URL
    /// with its rect and opacity, on one `data:` line, and the bytes come back unchanged.
    @Test func eventsStreamCarriesHeatMapImages() async throws {
        let server = try await startedServer()
        // A stand-in for a 68 × 68 RGBA PNG of a few KB (the server passes the bytes through).
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + (0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var update = sampleOverlay(3)
        update.items.insert(.image(png: png, x: 0.25, y: 0, width: 0.5, height: 1, opacity: 0.5), at: 0)
        server.publish(overlay: update)

        let c = try RawHTTPClient(port: server.boundPort)
        try c.get("/events")
        #expect(try c.readHead(deadline: deadline(20)).status == 200)
        var json: Data?
        while json == nil {
            let event = String(decoding: try c.readThrough("\n\n", deadline: deadline(20)), as: UTF8.self)
            let dataLines = event.split(separator: "\n").filter { $0.hasPrefix("data: ") }
            if dataLines.isEmpty { continue }
            #expect(dataLines.count == 1, "one data line per update, the image included")
            json = Data(dataLines[0].dropFirst(6).utf8)
        }
        let body = try #require(json)
        #expect(body.count < 10_000, "6 KB of PNG is about 8 KB of base64: \(body.count) bytes")
        let decoded = try JSONDecoder().decode(OverlayUpdate.self, from: body)
        #expect(decoded == update)
        let heat = decoded.items[0]
        let prefix = "data:image/png;base64,"
        let url = try #require(heat.image)
        #expect(url.hasPrefix(prefix))
        #expect(Data(base64Encoded: String(url.dropFirst(prefix.count))) == Data(png))
        #expect(heat.opacity == 0.5 && heat.points == [[0.25, 0], [0.75, 0], [0.75, 1], [0.25, 1]])
        // Line items carry no image fields at all.
        let raw = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let items = try #require(raw["items"] as? [[String: Any]])
        #expect(items.count == 3 && items[1]["image"] == nil && items[1]["opacity"] == nil)
        await server.stop()
    }

    @Test func slowClientNeitherBlocksPublishNorBuffersUnboundedly() async throws {
        // A stalled client must survive the whole test (however slow the machine), so the
        // write-stall timeout is out of the way here; `ServerHardeningTests` covers it.
        var patient = LiveViewerServer.Configuration()
        patient.writeStallTimeout = .seconds(3600)
        let server = try await startedServer(patient)
        let port = server.boundPort
        let big = padded(try loadJPEG("frame-c.jpg"), to: 400_000)
        #expect(big.count > 390_000)

        // One client that never reads (small receive buffer), and one that reads only afterwards.
        let stalled = try RawHTTPClient(port: port, receiveBufferSize: 4096)
        try stalled.get("/stream.mjpg")
        let late = try RawHTTPClient(port: port)
        try late.get("/stream.mjpg")
        try await waitFor("two stream clients") { server.streamingClientCount == 2 }

        let rssBefore = residentBytes()
        let count = 2000
        // Publishing must not wait for clients: a publish that waited for the stalled client
        // would never return, so the publisher would not finish within the (generous) deadline.
        let published = Counter()
        let publisher = Task.detached {
            for i in 0..<count {
                server.publish(frame: PreviewFrame(jpeg: big, width: 320, height: 240, index: i, timestamp: Double(i)))
                published.increment()
            }
        }
        try await waitFor("\(count) publishes with a stalled client", timeout: 300) { published.value == count }
        await publisher.value
        let rssAfter = residentBytes()
        print("published \(count) frames of \(big.count) bytes; RSS +\((rssAfter - rssBefore) / 1_000_000) MB")
        // 2000 frames would be 800 MB if queued for one client.
        #expect(rssAfter - rssBefore < 150_000_000)

        try await Task.sleep(for: .milliseconds(300))
        let stats = server.hub.bufferStats()
        print("per-client buffers: \(stats)")
        #expect(stats.count == 2)
        let partBound = big.count + 512
        for s in stats {
            #expect(s.pendingBytes <= partBound && s.inFlightBytes <= partBound)
            let waiting = s.pendingBytes > 0 ? 1 : 0
            #expect(s.delivered + s.skipped + waiting == count, "every frame is delivered, skipped or waiting")
        }
        let stalledStats = try #require(stats.first)
        #expect(stalledStats.skipped > count - 100, "the stalled client skips, it does not queue")
        // Publishers hand work to the event loop only when the handler is not already going to
        // look: at most one wake-up per delivered message (plus the last one that found nothing).
        for s in stats {
            #expect(
                s.wakeups <= s.delivered + 1, "publishers scheduled \(s.wakeups) wake-ups for \(s.delivered) messages")
        }
        let nioBuffered = await server.hub.channelBufferedBytes()
        print("NIO outbound buffered bytes per client: \(nioBuffered)")
        #expect(nioBuffered.allSatisfy { $0 <= partBound })

        // The late reader catches up to the newest frame after a handful of parts.
        let head = try late.readHead(deadline: deadline(20))
        #expect(head.status == 200)
        _ = try late.readThrough("\r\n", deadline: deadline(20))  // preamble boundary
        var parts = 0
        var last = -1
        while last != count - 1 {
            let (headers, jpeg) = try readPart(late, boundary: "ovframe", deadline: deadline(10))
            #expect(jpeg.count == big.count)
            last = Int(headers["x-frame-index"] ?? "") ?? -1
            parts += 1
            #expect(parts < 50)
            if parts >= 50 { break }
        }
        print("late reader reached frame \(last) after \(parts) parts")
        #expect(last == count - 1)

        // A publish still returns with the stalled client connected.
        let again = Task.detached {
            server.publish(frame: PreviewFrame(jpeg: big, width: 320, height: 240, index: count, timestamp: 0))
            published.increment()
        }
        try await waitFor("a publish with the stalled client connected", timeout: 120) { published.value == count + 1 }
        await again.value
        await server.stop()
        #expect(stalled.waitForClose(deadline: deadline(20)))
    }

    @Test func stopClosesAllConnections() async throws {
        let server = try await startedServer()
        let port = server.boundPort
        server.publish(
            frame: PreviewFrame(jpeg: try loadJPEG("frame-a.jpg"), width: 320, height: 240, index: 0, timestamp: 0))
        server.publish(overlay: sampleOverlay(0))

        let mjpeg = try RawHTTPClient(port: port)
        try mjpeg.get("/stream.mjpg")
        let events = try RawHTTPClient(port: port)
        try events.get("/events")
        let idle = try RawHTTPClient(port: port)
        try idle.get("/health", keepAlive: true)
        #expect(try idle.readResponse(deadline: deadline(20)).0.status == 200)
        #expect(try mjpeg.readHead(deadline: deadline(20)).status == 200)
        #expect(try events.readHead(deadline: deadline(20)).status == 200)
        try await waitFor("stream clients") { server.streamingClientCount == 2 }

        // stop() returns once every connection is closed (or force-closed after its grace period).
        let stopped = Counter()
        let stopping = Task.detached {
            await server.stop()
            stopped.increment()
        }
        try await waitFor("stop() to return", timeout: 120) { stopped.value == 1 }
        await stopping.value
        #expect(mjpeg.waitForClose(deadline: deadline(20)), "MJPEG stream left open")
        #expect(events.waitForClose(deadline: deadline(20)), "SSE stream left open")
        #expect(idle.waitForClose(deadline: deadline(20)), "keep-alive connection left open")
        #expect(throws: (any Error).self) { _ = try RawHTTPClient(port: port) }
        server.publish(
            // harmless after stop
            frame: PreviewFrame(jpeg: [0xFF, 0xD8, 0xFF, 0xD9], width: 1, height: 1, index: 1, timestamp: 1))
        await #expect(throws: LiveViewerServerError.self) { try await server.start() }
    }
}
