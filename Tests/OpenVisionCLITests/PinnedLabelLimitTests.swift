import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 28, item 13, over HTTP: `openvision live --pin-labels --serve` pins at most 64 labels; the 65th POST is
/// refused with 409 and a JSON error, a DELETE frees a place, and no frame's JSON Lines carry more than 64.
@Suite struct PinnedLabelLimitTests {
    /// Python's urllib: every request in order, each answer's status and body.
    static let client = #"""
        import json, sys, time, urllib.request, urllib.error
        base = sys.argv[1]
        def call(method, path, body=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode()
        out = {}
        # The anchors are served once the analyzer exists (404 before) and take pins once a frame is analysed (503 before).
        end = time.time() + 120
        while True:
            status, body = call("POST", "anchors", {"x": 0.1, "y": 0.1, "label": "p0"})
            if status not in (404, 503) or time.time() > end: break
            time.sleep(0.2)
        statuses = [status]
        for i in range(1, 64):
            statuses.append(call("POST", "anchors", {"x": 0.1 + 0.8 * (i % 8) / 7, "y": 0.1 + 0.8 * (i // 8) / 7, "label": "p%d" % i})[0])
        out["first64"] = statuses
        out["over"] = call("POST", "anchors", {"x": 0.5, "y": 0.5, "label": "one too many"})
        out["listed"] = len(json.loads(call("GET", "anchors")[1])["anchors"])
        out["delete"] = call("DELETE", "anchors/1")[0]
        out["again"] = call("POST", "anchors", {"x": 0.5, "y": 0.5, "label": "again"})[0]
        time.sleep(2)  # a few more frames with the anchors
        print(json.dumps(out))
        """#

    @Test func theSixtyFifthPinIsRefused() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A textured still scene, 8 fps, 2400 frames: the paced source outlasts the requests.
        let video = dir.appendingPathComponent("scene.avi")
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg")).resized(width: 640, height: 480)
        let writer = try VideoFileWriter(url: video, fps: 8, width: 640, height: 480)
        for _ in 0..<2400 { try writer.write(photo) }
        writer.finish()
        let jsonl = dir.appendingPathComponent("frames.jsonl")
        let server = try await LiveViewerProcess([
            "live", "--source", video.path, "--requests", "barcodes", "--pin-labels",
            "--duration", "300", "--jsonl", jsonl.path,
        ])
        let script = dir.appendingPathComponent("client.py")
        try Data(Self.client.utf8).write(to: script)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [script.path, server.page]
        let out = Pipe()
        python.standardOutput = out
        python.standardError = FileHandle.nullDevice
        try python.run()
        let printed = try await blocking { () -> Data in
            let data = out.fileHandleForReading.readDataToEndOfFile()
            python.waitUntilExit()
            return data
        }
        try await server.stop()
        let result = try #require(
            try? JSONSerialization.jsonObject(with: printed) as? [String: Any],
            "the client failed: \(String(decoding: printed, as: UTF8.self))")
        #expect(result["first64"] as? [Int] == Array(repeating: 201, count: 64))
        let over = try #require(result["over"] as? [Any])
        #expect(over.first as? Int == 409)
        let error = try #require(
            try JSONSerialization.jsonObject(with: Data(((over.last as? String) ?? "").utf8)) as? [String: String])
        #expect(error["error"]?.contains("at most 64 labels") == true, "\(error)")
        #expect(
            result["listed"] as? Int == 64 && result["delete"] as? Int == 204 && result["again"] as? Int == 201,
            "\(result)")
        // Every frame's JSON Lines: at most 64 anchors, and some frame with all 64.
        let counts = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n").map { line in
            ((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["anchors"] as? [Any])?.count
                ?? 0
        }
        #expect(counts.max() == 64, "anchors per frame: at most \(counts.max() ?? -1)")
    }
}
