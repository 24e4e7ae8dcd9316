import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 28, item 7, with a real server: `pg_ctl restart -m fast` again and again under two workers. No slot
/// may stay stuck (the queue drains), every job has exactly one result, and SIGTERM still stops both workers.
/// `scripts/bench-jobs-restarts` runs the long form (20 restarts) and times the recoveries.
@Suite(
    .enabled(
        if: PostgresCluster.available, "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct RestartLoopTests {
    @Test func workersSurviveRepeatedFastRestarts() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in 0..<5 {
            try BarcodeGenerator.image(for: "restart-\(n)", symbology: .qr, moduleSize: 3).write(
                to: dir.appendingPathComponent("code\(n).png"))
        }
        let list = dir.appendingPathComponent("images.txt")
        try (0..<300).map { "code\($0 % 5).png" }.joined(separator: "\n").write(
            to: list, atomically: true, encoding: .utf8)
        @Sendable func submitBatch() async throws {
            let submit = try await CLIProcess.run(["jobs", "submit", "--db", url, "--requests", "barcodes", list.path])
            #expect(submit.status == 0, "\(submit.stderr)")
        }
        try await submitBatch()

        // statement_timeout=5: a statement stuck on a connection that died under it is given up after 5 s.
        let workerURL = url + "&statement_timeout=5"
        let workers = try (0..<2).map { n in
            try BoundedProcess(
                [
                    "worker", "--db", workerURL, "--id", "r\(n)", "--concurrency", "2", "--streams", "0", "--lease",
                    "5",
                    "--poll", "0.1", "--retry-backoff", "0.2",
                ], stderr: dir.appendingPathComponent("r\(n).log"))
        }
        let succeeded = "SELECT count(*) FROM openvision_jobs WHERE state = 'succeeded'"
        do {
            for round in 1...4 {
                // Under load: jobs queued (a batch more when few are), and some results since the last restart. The
                // count is read before the batch goes in: a fast fleet can finish a whole batch before a later read.
                let before = try FleetTests.count(cluster, succeeded)
                if try FleetTests.count(cluster, "SELECT count(*) FROM openvision_jobs WHERE state = 'queued'") < 150 {
                    try await submitBatch()
                }
                try await FleetTests.wait(240, "progress before restart \(round)") {
                    try FleetTests.count(cluster, succeeded) >= before + 20
                }
                try await blocking { try cluster.restart() }
            }
            try await FleetTests.wait(300, "the queue to drain after 4 restarts") {
                try FleetTests.count(
                    cluster, "SELECT count(*) FROM openvision_jobs WHERE state IN ('queued', 'running')") == 0
            }
        } catch {
            // What the queue, the server's sessions and the workers were doing.
            let states =
                (try? cluster.psql(
                    "SELECT string_agg(state || ' ' || n, ', ') FROM (SELECT state, count(*) n FROM openvision_jobs GROUP BY state) s"
                )) ?? "?"
            let sessions =
                (try? cluster.psql(
                    "SELECT string_agg(state || ': ' || left(query, 50), '; ') FROM pg_stat_activity WHERE backend_type = 'client backend'"
                )) ?? "?"
            Issue.record(
                "jobs: \(states); sessions: \(sessions)\nr0: \(workers[0].stderr.suffix(3000))\nr1: \(workers[1].stderr.suffix(3000))"
            )
            for worker in workers { worker.signal(SIGKILL) }
            throw error
        }
        for worker in workers { worker.signal(SIGTERM) }
        for (n, worker) in workers.enumerated() {
            let status = await worker.wait(60)
            #expect(status == 143, "r\(n): \(String(describing: status)); \(worker.stderr.suffix(1500))")
        }
        let total = try FleetTests.count(cluster, "SELECT count(*) FROM openvision_jobs")
        #expect(total >= 300 && total % 300 == 0)
        #expect(try FleetTests.count(cluster, succeeded) == total)
        #expect(try FleetTests.count(cluster, "SELECT count(*) FROM openvision_results") == total)
        #expect(
            try FleetTests.count(
                cluster,
                """
                SELECT count(*) FROM openvision_results r JOIN openvision_jobs j ON j.id = r.job_id
                 WHERE r.result->'barcodes'->0->>'payload' = 'restart-' || substring(j.input FROM 'code([0-9])\\.png$')
                """) == total)
    }
}
