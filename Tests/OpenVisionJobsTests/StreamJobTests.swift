import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Stream jobs across worker processes: one source per lease; a killed worker's stream moves to
/// another worker; a stream with --duration ends succeeded; SIGTERM releases a stream.
@Suite(
    .enabled(
        if: RequiredTools.runs(PostgresCluster.available),
        "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct StreamJobTests {
    @Test func aKilledWorkersStreamMovesToAnotherWorker() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A still scene with a QR code, 5 fps, 900 frames: a paced source of 3 minutes.
        let video = dir.appendingPathComponent("camera.avi")
        let writer = try VideoFileWriter(url: video, fps: 5, width: 320, height: 240)
        var canvas = try ImageCanvas(width: 320, height: 240, color: OverlayColor(red: 255, green: 255, blue: 255))
        let code = try BarcodeGenerator.image(for: "camera-1", symbology: .qr, moduleSize: 4)
        try canvas.draw(code, at: CGPoint(x: 160 - Double(code.width) / 2, y: 120 - Double(code.height) / 2))
        let frame = canvas.makeImage()
        for _ in 0..<900 { try writer.write(frame) }
        writer.finish()

        let submit = try await CLIProcess.run([
            "jobs", "submit-stream", "--db", url, "--requests", "barcodes", video.path,
        ])
        #expect(submit.status == 0 && submit.stdout.contains(#""submitted":1"#), "\(submit.stderr)")
        // A 6 s lease: renewed every 2 s, so a loaded machine does not lose it by a late heartbeat.
        let streamArgs = ["--concurrency", "0", "--streams", "1", "--lease", "6", "--poll", "0.1"]
        let a = try FleetTests.startWorker("A", url: url, log: dir.appendingPathComponent("A.log"), extra: streamArgs)
        var others: [Process] = []
        defer { for p in [a] + others where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        @Sendable func frames(_ worker: String) throws -> Int {
            try FleetTests.count(
                cluster, "SELECT count(*) FROM openvision_stream_frames WHERE job_id = 1 AND worker = '\(worker)'")
        }
        try await FleetTests.wait(180, "frames from A") { try frames("A") > 0 }
        // Each frame's result is the live report, the code found.
        #expect(
            try cluster.psql(
                "SELECT result->'barcodes'->0->>'payload' FROM openvision_stream_frames WHERE worker = 'A' ORDER BY id LIMIT 1"
            ) == "camera-1")
        let b = try FleetTests.startWorker("B", url: url, log: dir.appendingPathComponent("B.log"), extra: streamArgs)
        others.append(b)
        try await Task.sleep(for: .seconds(1))
        // One stream, one owner: B has nothing while A holds the lease.
        #expect(try frames("B") == 0)
        kill(a.processIdentifier, SIGKILL)
        a.waitUntilExit()
        try await FleetTests.wait(180, "B to take the stream over") { try frames("B") > 0 }
        #expect(
            try cluster.psql("SELECT state, locked_by, attempts FROM openvision_jobs WHERE id = 1") == "running|B|2")

        // A second source with --duration 1: B is busy, so C takes it; it ends succeeded with its summary.
        let second = try await CLIProcess.run([
            "jobs", "submit-stream", "--db", url, "--requests", "barcodes", "--duration", "1", video.path,
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let c = try FleetTests.startWorker("C", url: url, log: dir.appendingPathComponent("C.log"), extra: streamArgs)
        others.append(c)
        try await FleetTests.wait(180, "the 1 s stream to finish") {
            try cluster.psql("SELECT state FROM openvision_jobs WHERE id = 2") == "succeeded"
        }
        #expect(
            try cluster.psql(
                "SELECT worker, (result->>'framesStored')::int > 0 FROM openvision_results WHERE job_id = 2") == "C|t")
        let listed = try await CLIProcess.run(["jobs", "results", "--db", url, "--stream", "2"])
        #expect(
            listed.stdout.split(separator: "\n").count
                == (try FleetTests.count(cluster, "SELECT count(*) FROM openvision_stream_frames WHERE job_id = 2")))
        #expect(listed.stdout.contains(#""payload": "camera-1""#))

        // SIGTERM: C (idle) exits; B stops its stream and releases it, without counting the attempt.
        kill(c.processIdentifier, SIGTERM)
        try await blocking { c.waitUntilExit() }
        #expect(c.terminationStatus == 143)
        kill(b.processIdentifier, SIGTERM)
        try await blocking { b.waitUntilExit() }
        #expect(b.terminationStatus == 143)
        let released = try cluster.psql(
            "SELECT state, coalesce(locked_by, '-'), attempts FROM openvision_jobs WHERE id = 1")
        #expect(
            released == "queued|-|1",
            "\(released); B: \((try? String(contentsOf: dir.appendingPathComponent("B.log"), encoding: .utf8)) ?? "")")
    }
}
