import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The issue's fleet test: real `openvision worker` processes on a private PostgreSQL, one worker
/// killed with SIGKILL mid-run, the database restarted once: every job has exactly one result,
/// none is lost, and the poison jobs are failed with their error after their attempts.
@Suite(
    .enabled(
        if: RequiredTools.runs(PostgresCluster.available),
        "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct FleetTests {
    /// Polls `condition` every 0.3 s until it holds or `seconds` pass (generous: a loaded 2-core machine).
    /// With `required: false` a timeout is no failure (the caller only prefers the condition).
    static func wait(
        _ seconds: Double, _ what: String, required: Bool = true, poll: Duration = .milliseconds(300),
        _ condition: @escaping @Sendable () throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await blocking(condition) { return }
            try await Task.sleep(for: poll)
        }
        guard required else { return }
        Issue.record("timed out after \(seconds) s waiting for \(what)")
        throw CancellationError()
    }

    static func count(_ cluster: PostgresCluster, _ sql: String) throws -> Int {
        Int(try cluster.psql(sql)) ?? -1
    }

    static func startWorker(_ id: String, url: String, log: URL, extra: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments =
            [
                "worker", "--db", url, "--id", id, "--concurrency", "2", "--streams", "0", "--lease", "3",
                "--poll", "0.1", "--retry-backoff", "0.2",
            ] + extra
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func threeWorkersSurviveAKillAndADatabaseRestart() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let url = cluster.url()
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }

        // Five tiny QR codes (payload fleet-N) and one corrupt PNG (a PNG signature, then noise).
        var good: [URL] = []
        for n in 0..<5 {
            let file = dir.appendingPathComponent("code\(n).png")
            try BarcodeGenerator.image(for: "fleet-\(n)", symbology: .qr, moduleSize: 3).write(to: file)
            good.append(file)
        }
        let poison = dir.appendingPathComponent("corrupt.png")
        try
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            + Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) })).write(to: poison)
        // 500 jobs: every 100th is the corrupt file (5 poison jobs), the rest cycle through the codes.
        let lines = (0..<500).map { $0 % 100 == 99 ? "corrupt.png" : good[$0 % 5].lastPathComponent }
        let list = dir.appendingPathComponent("images.txt")
        try ("# fleet test\n" + lines.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)

        let submit = try await CLIProcess.run([
            "jobs", "submit", "--db", url, "--requests", "barcodes", "--max-attempts", "3", list.path,
        ])
        #expect(submit.status == 0, "\(submit.stderr)")
        #expect(submit.stdout.contains(#""submitted":500"#), "\(submit.stdout)")

        var workers: [Process] = []
        for n in 0..<3 {
            workers.append(try Self.startWorker("w\(n)", url: url, log: dir.appendingPathComponent("w\(n).log")))
        }
        defer { for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }

        let succeeded = "SELECT count(*) FROM openvision_jobs WHERE state = 'succeeded'"
        // Mid-run: w0 dies without a word (its leases are left to expire).
        try await Self.wait(240, "100 jobs done") { try Self.count(cluster, succeeded) >= 100 }
        // ... preferably while it holds a job (it may finish it between this query and the signal).
        try await Self.wait(30, "w0 to hold a job", required: false, poll: .milliseconds(5)) {
            try Self.count(cluster, "SELECT count(*) FROM openvision_jobs WHERE locked_by = 'w0' AND state = 'running'")
                > 0
        }
        kill(workers[0].processIdentifier, SIGKILL)
        workers[0].waitUntilExit()
        let orphaned = try await blocking {
            try cluster.psql(
                "SELECT coalesce(string_agg(id::text, ','), '') FROM openvision_jobs WHERE locked_by = 'w0' AND state = 'running'"
            )
        }
        // Later: the database restarts under the two survivors.
        try await Self.wait(240, "250 jobs done") { try Self.count(cluster, succeeded) >= 250 }
        try await blocking { try cluster.restart() }

        try await Self.wait(300, "the queue to drain") {
            try Self.count(cluster, "SELECT count(*) FROM openvision_jobs WHERE state IN ('queued', 'running')") == 0
        }
        // Graceful stop: SIGTERM, exit status 143 once in-flight jobs are written.
        for worker in workers[1...] { kill(worker.processIdentifier, SIGTERM) }
        for worker in workers[1...] {
            let process = worker
            try await blocking { process.waitUntilExit() }
            #expect(process.terminationStatus == 143)
        }

        // Exactly one result per succeeded job, none lost, none for a failed job.
        #expect(try Self.count(cluster, succeeded) == 495)
        #expect(try Self.count(cluster, "SELECT count(*) FROM openvision_results") == 495)
        #expect(
            try Self.count(
                cluster,
                """
                SELECT count(*) FROM openvision_jobs j LEFT JOIN openvision_results r ON r.job_id = j.id
                 WHERE (j.state = 'succeeded') <> (r.job_id IS NOT NULL)
                """) == 0)
        // Each result is the image's own: its QR payload, as `openvision analyze` reports it.
        #expect(
            try Self.count(
                cluster,
                """
                SELECT count(*) FROM openvision_results r JOIN openvision_jobs j ON j.id = r.job_id
                 WHERE r.result->'barcodes'->0->>'payload' = 'fleet-' || substring(j.input FROM 'code([0-9])\\.png$')
                   AND r.result->>'image' = j.input
                """) == 495)
        // The poison jobs: failed after 3 attempts, the decoder's error kept.
        #expect(
            try cluster.psql(
                "SELECT count(*), min(attempts), max(attempts) FROM openvision_jobs WHERE state = 'failed'") == "5|3|3")
        #expect(
            try Self.count(
                cluster,
                "SELECT count(*) FROM openvision_jobs WHERE state = 'failed' AND input LIKE '%corrupt.png' AND last_error LIKE '%[invalidImage]%'"
            ) == 5)
        // The jobs w0 held when it died were finished by the others (their lease expired: a second attempt).
        for id in orphaned.split(separator: ",") {
            let row = try cluster.psql(
                "SELECT j.state, j.attempts >= 2, coalesce(r.worker, '') <> 'w0' FROM openvision_jobs j LEFT JOIN openvision_results r ON r.job_id = j.id WHERE j.id = \(id)"
            )
            #expect(row == "succeeded|t|t" || row.hasPrefix("failed|t"), "job \(id) held by the killed worker: \(row)")
        }
        // The survivors saw the restart and reconnected (DatabaseSession's log lines: a statement that
        // failed, or a connection found closed between statements).
        for n in 1...2 {
            let log = try String(contentsOf: dir.appendingPathComponent("w\(n).log"), encoding: .utf8)
            #expect(log.contains("reconnect"), "w\(n): \(log.suffix(2000))")
        }
        print("fleet: w0 held \(orphaned.split(separator: ",").count) job(s) when killed: \(orphaned)")
        // The CLI's read-outs agree.
        let status = try await CLIProcess.run(["jobs", "status", "--db", url])
        #expect(
            status.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"failed":5,"queued":0,"running":0,"succeeded":495}"#)
        let failed = try await CLIProcess.run(["jobs", "results", "--db", url, "--state", "failed"])
        let failedLines = failed.stdout.split(separator: "\n")
        #expect(failedLines.count == 5)
        #expect(failedLines.allSatisfy { $0.contains(#""state": "failed""#) && $0.contains("invalidImage") })
        let all = try await CLIProcess.run(["jobs", "results", "--db", url, "--state", "succeeded"])
        #expect(all.stdout.split(separator: "\n").count == 495)
        // retry puts the poison jobs back in the queue.
        let retry = try await CLIProcess.run(["jobs", "retry", "--db", url])
        #expect(retry.stdout.contains(#"{"requeued":5}"#))
        #expect(
            try Self.count(cluster, "SELECT count(*) FROM openvision_jobs WHERE state = 'queued' AND attempts = 0") == 5
        )
    }
}
