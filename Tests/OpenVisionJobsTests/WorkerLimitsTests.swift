import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVisionJobs

/// Issue 28, item 8: a worker's slots against the server's connections. A private cluster
/// (`max_connections = 60`, 3 reserved for superusers): the test holds most of them itself.
@Suite(
    .enabled(
        if: PostgresCluster.available, "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct WorkerLimitsTests {
    @Test func slotsAreBoundedByTheServersConnectionsAndWaitingSlotsLogQuietly() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }

        // More slots than the server has connections: refused at start, with the numbers, in a line or two.
        let tooMany = try await BoundedProcess.run(
            ["worker", "--db", url, "--concurrency", "150", "--poll", "0.1"], seconds: 120)
        #expect(
            tooMany.status == 1,
            "status \(String(describing: tooMany.status)) (nil: still running); \(tooMany.stderr.suffix(1500))")
        #expect(
            tooMany.stderr.contains("153 connections") && tooMany.stderr.contains("max_connections 60"),
            "\(tooMany.stderr.suffix(1500))")
        #expect(tooMany.stderr.split(separator: "\n").count <= 3, "\(tooMany.stderr.suffix(1500))")

        // Slots that fit the server but not what is free now (the test holds 45 of the 60): those without a
        // connection wait and retry with the reconnect backoff, logging the outage once, not once per attempt.
        var held: [JobStore] = []
        for _ in 0..<45 { held.append(try await JobStore.connect(try DatabaseURL(url))) }
        let file = dir.appendingPathComponent("worker.log")
        let worker = try BoundedProcess(
            [
                "worker", "--db", url, "--id", "busy", "--concurrency", "20", "--streams", "0", "--poll", "0.1",
                "--retry-backoff", "0",
            ], stderr: file)
        let warned = await BoundedProcess.eventually(60) { worker.stderr.contains("too many clients") }
        #expect(warned, "\(worker.stderr.suffix(1500))")
        try await Task.sleep(for: .seconds(4))
        let lines = worker.stderr.split(separator: "\n")
        // Before: ~8 slots without a connection logged "claim failed" every --poll (0.1 s): ~300 lines in 4 s.
        #expect(lines.count <= 12, "\(lines.count) lines: \(worker.stderr.suffix(2000))")
        for store in held { await store.close() }
        let submit = try await CLIProcess.run(
            ["jobs", "submit", "--db", url, "--requests", "barcodes", "--max-attempts", "1"]
                + (0..<30).map { "/nonexistent/\($0).png" })
        #expect(submit.status == 0, "\(submit.stderr)")
        // With connections back every slot works: the 30 jobs (missing files) fail after their one attempt.
        try await FleetTests.wait(120, "the queue to drain") {
            try FleetTests.count(cluster, "SELECT count(*) FROM openvision_jobs WHERE state = 'failed'") == 30
        }
        worker.signal(SIGTERM)
        let status = await worker.wait(60)
        #expect(status == 143, "\(worker.stderr.suffix(1500))")
    }
}
