import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionViewer

/// An in-memory `AnchorService`: pins get IDs 1, 2, …; with `hasFrame` false it refuses like the CLI's before
/// the first analysed frame.
private final class FakeAnchors: AnchorService {
    struct State {
        var anchors: [PinnedAnchor] = []
        var nextID = 1
        var calls: [String] = []
    }
    let state = Mutex(State())
    let hasFrame: Bool

    init(hasFrame: Bool = true) { self.hasFrame = hasFrame }

    func listAnchors() -> [PinnedAnchor] { state.withLock { $0.anchors } }

    func addAnchor(x: Double, y: Double, label: String?) throws(AnchorServiceError) -> PinnedAnchor {
        guard hasFrame else { throw AnchorServiceError(status: 503, message: "no frame has been analysed yet") }
        return state.withLock { s in
            let anchor = PinnedAnchor(id: s.nextID, label: label ?? "mug", x: x, y: y, state: "normal")
            s.nextID += 1
            s.anchors.append(anchor)
            s.calls.append("add \(x) \(y) \(label ?? "-")")
            return anchor
        }
    }

    func removeAnchor(id: Int) -> Bool {
        state.withLock { s in
            guard let i = s.anchors.firstIndex(where: { $0.id == id }) else { return false }
            s.anchors.remove(at: i)
            return true
        }
    }
}

/// `GET|POST /anchors`, `GET|DELETE /anchors/{id}`: statuses, JSON bodies and the messages of refusals.
@Suite(.serialized) struct AnchorEndpointTests {
    /// One request on its own connection; the status and the body parsed as JSON (nil when empty or not JSON).
    func request(
        _ port: Int, _ method: String, _ path: String, body: String? = nil, type: String? = "application/json",
        host: String = "127.0.0.1"
    ) throws -> (status: Int, json: [String: Any]?, headers: [String: String]) {
        let c = try RawHTTPClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        let bytes = Array((body ?? "").utf8)
        head += "Content-Length: \(bytes.count)\r\n\r\n"
        try c.send(head + (body ?? ""))
        let (h, data) = try c.readResponse(deadline: deadline(20))
        // Plain-text answers (403, 405 outside /anchors) have no JSON.
        return (
            h.status, data.isEmpty ? nil : (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any],
            h.headers
        )
    }

    @Test func pinListAndRemove() async throws {
        let server = try await startedServer()
        let anchors = FakeAnchors()
        server.serveAnchors(anchors)
        let port = server.boundPort

        let listed = try request(port, "GET", "/anchors", type: nil)
        #expect(listed.status == 200 && (listed.json?["anchors"] as? [Any])?.isEmpty == true)
        let pinned = try request(port, "POST", "/anchors", body: #"{"x": 0.25, "y": 0.75, "label": "  coffee mug "}"#)
        #expect(pinned.status == 201 && pinned.headers["location"] == "/anchors/1")
        #expect(pinned.json?["id"] as? Int == 1 && pinned.json?["label"] as? String == "coffee mug")
        #expect(
            pinned.json?["x"] as? Double == 0.25 && pinned.json?["y"] as? Double == 0.75
                && pinned.json?["state"] as? String == "normal")
        // Without a label the service picks it (the CLI: the current top class); integers are numbers too.
        let second = try request(
            port, "POST", "/anchors", body: #"{"x": 1, "y": 0}"#, type: "application/json; charset=utf-8")
        #expect(second.status == 201 && second.json?["label"] as? String == "mug")
        #expect(anchors.state.withLock { $0.calls } == ["add 0.25 0.75 coffee mug", "add 1.0 0.0 -"])

        let all = try request(port, "GET", "/anchors", type: nil)
        #expect((all.json?["anchors"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [1, 2])
        let one = try request(port, "GET", "/anchors/2", type: nil)
        #expect(one.status == 200 && one.json?["id"] as? Int == 2)
        let deleted = try request(port, "DELETE", "/anchors/1", type: nil)
        #expect(deleted.status == 204 && deleted.json == nil)
        #expect(anchors.listAnchors().map(\.id) == [2])
        await server.stop()
    }

    /// Bad coordinates and bodies: 400 with a message naming the problem; nothing reaches the service.
    @Test(arguments: [
        (#"{"x": 1.5, "y": 0.5}"#, "x must be within 0...1"),
        (#"{"x": 0.5, "y": -0.01}"#, "y must be within 0...1"),
        (#"{"x": 0.5}"#, "x and y are required"),
        (#"{"x": "NaN", "y": 0.5}"#, "must be a JSON object"),
        (#"{"x": NaN, "y": 0.5}"#, "must be a JSON object"),
        (#"{"x": 1e999, "y": 0.5}"#, "must be a JSON object"),  // out of Double's range: JSONDecoder refuses it
        (#"{"x": true, "y": 0.5}"#, "must be a JSON object"),
        (#"{"x": 0.5, "y": 0.5, "label": ""}"#, "label must not be empty"),
        (#"{"x": 0.5, "y": 0.5, "label": 7}"#, "must be a JSON object"),
        (#"[0.5, 0.5]"#, "must be a JSON object"),
        ("x=0.5&y=0.5", "must be a JSON object"),
        ("", "must be a JSON object"),
    ])
    func badPinsAre400(_ body: String, _ message: String) async throws {
        let server = try await startedServer()
        let anchors = FakeAnchors()
        server.serveAnchors(anchors)
        let response = try request(server.boundPort, "POST", "/anchors", body: body)
        #expect(response.status == 400, "\(body)")
        let error = response.json?["error"] as? String ?? ""
        #expect(error.contains(message), "\(body): \(error)")
        #expect(anchors.listAnchors().isEmpty)
        await server.stop()
    }

    @Test func unknownIDsAndOtherRefusals() async throws {
        let server = try await startedServer()
        let port = server.boundPort
        // No service: the endpoints say how to turn them on.
        let off = try request(port, "GET", "/anchors", type: nil)
        #expect(off.status == 404 && (off.json?["error"] as? String)?.contains("--pin-labels") == true)
        server.serveAnchors(FakeAnchors())
        let unknown = try request(port, "DELETE", "/anchors/42", type: nil)
        #expect(unknown.status == 404 && unknown.json?["error"] as? String == "no anchor 42")
        #expect(try request(port, "GET", "/anchors/42", type: nil).status == 404)
        #expect(try request(port, "DELETE", "/anchors/abc", type: nil).status == 404)
        // A form post (what a cross-site page can send without a preflight) is refused.
        let form = try request(port, "POST", "/anchors", body: #"{"x": 0.5, "y": 0.5}"#, type: "text/plain")
        #expect(form.status == 415)
        let big = try request(
            port, "POST", "/anchors",
            body: #"{"x": 0.5, "y": 0.5, "label": ""# + String(repeating: "a", count: 20_000) + #""}"#)
        #expect(big.status == 413)
        let put = try request(port, "PUT", "/anchors", body: "{}")
        #expect(put.status == 405 && put.headers["allow"] == "GET, HEAD, POST")
        #expect(try request(port, "POST", "/anchors/1", body: "{}").status == 405)
        // Other paths still take GET only; a foreign Host is refused before anything else.
        #expect(try request(port, "POST", "/health", body: "{}").status == 405)
        #expect(
            try request(port, "POST", "/anchors", body: #"{"x": 0.5, "y": 0.5}"#, host: "evil.example").status == 403)
        await server.stop()

        // The service's own refusals keep their status.
        let early = try await startedServer()
        early.serveAnchors(FakeAnchors(hasFrame: false))
        let refused = try request(early.boundPort, "POST", "/anchors", body: #"{"x": 0.5, "y": 0.5}"#)
        #expect(refused.status == 503 && refused.json?["error"] as? String == "no frame has been analysed yet")
        await early.stop()
    }
}
