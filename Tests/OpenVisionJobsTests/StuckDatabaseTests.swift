import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVisionJobs

/// Issue 28, items 7 and 9: servers that stop answering, ask for a password, or are not there, and option
/// values that trapped. No PostgreSQL needed: `FakePostgresServer` plays the server. Every child process is
/// waited on with a deadline (`BoundedProcess`), so a regression fails here instead of hanging the suite.
@Suite struct StuckDatabaseTests {
    /// A TCP port on 127.0.0.1 with nothing listening (bound to 0, read back, closed).
    static func closedPort() throws -> Int {
        let server = try FakePostgresServer(mode: .readyThenClose)
        server.stop()
        return server.port
    }

    static func log(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(name)-\(UUID()).log")
    }

    /// The hang of `pg_ctl restart` rounds, made deterministic: the server completes the handshake and closes.
    /// PostgresNIO writes the first statement to the closed channel and never completes it. The worker must
    /// keep reconnecting (each statement has a deadline that does not wait for the stuck call) and stop on
    /// SIGTERM with 143.
    @Test func aWorkerOutlivesAConnectionThatClosesAfterTheHandshakeAndStopsOnSIGTERM() async throws {
        let server = try FakePostgresServer(mode: .readyThenClose)
        defer { server.stop() }
        let file = Self.log("stuck-worker")
        defer { try? FileManager.default.removeItem(at: file) }
        let worker = try BoundedProcess(
            [
                "worker", "--db", "postgres://u@127.0.0.1:\(server.port)/db?statement_timeout=1&connect_timeout=2",
                "--concurrency", "2", "--streams", "0", "--poll", "0.1",
            ], stderr: file)
        // Reconnects: 0.1 s doubling to 5 s between attempts, each ending at the server's close or the 1 s deadline.
        let reconnecting = await BoundedProcess.eventually(90) { server.connections >= 6 }
        #expect(reconnecting, "connections: \(server.connections) (stuck?); \(worker.stderr.suffix(1500))")
        worker.signal(SIGTERM)
        let status = await worker.wait(60)
        #expect(
            status == 143,
            "status \(String(describing: status)) (nil: still running 60 s after SIGTERM); \(worker.stderr.suffix(1500))"
        )
        // Repeated outages are one line each (rate-limited), not one per attempt.
        let lines = worker.stderr.split(separator: "\n").filter { $0.contains("database unavailable") }
        #expect(lines.count >= 1 && lines.count < server.connections, "\(worker.stderr.suffix(1500))")
    }

    /// Issue 37, row 18: the same server, a worker with nothing in hand, SIGTERM while it reconnects: it exits (143)
    /// without waiting for the connection attempt under way, though --stop-timeout gives it an hour. Three rounds,
    /// each signal at another point of the reconnect cycle.
    @Test func anIdleWorkerLeavesAtOnceOnSIGTERM() async throws {
        let server = try FakePostgresServer(mode: .readyThenClose)
        defer { server.stop() }
        for round in 0..<3 {
            let file = Self.log("idle-worker-\(round)")
            defer { try? FileManager.default.removeItem(at: file) }
            let worker = try BoundedProcess(
                [
                    "worker", "--db",
                    "postgres://u@127.0.0.1:\(server.port)/db?statement_timeout=30&connect_timeout=30",
                    "--concurrency", "2", "--streams", "0", "--poll", "0.1", "--stop-timeout", "3600",
                ],
                stderr: file)
            let before = server.connections
            let connected = await BoundedProcess.eventually(90) { server.connections >= before + 2 + round }
            #expect(connected, "round \(round): \(worker.stderr.suffix(800))")
            worker.signal(SIGTERM)
            // Far less than the hour --stop-timeout allows, far more than leaving at once needs on a loaded machine.
            let status = await worker.wait(60)
            #expect(
                status == 143,
                "round \(round): status \(String(describing: status)) (nil: still running 60 s after SIGTERM); \(worker.stderr.suffix(800))"
            )
        }
    }

    /// `jobs status` against the same server ends with an error every time (it hung 4 runs in 6).
    @Test func jobsStatusEndsWithAnErrorInsteadOfHanging() async throws {
        let server = try FakePostgresServer(mode: .readyThenClose)
        defer { server.stop() }
        for _ in 0..<6 {
            let run = try await BoundedProcess.run(
                ["jobs", "status", "--db", "postgres://u@127.0.0.1:\(server.port)/db?statement_timeout=1"],
                seconds: 60)
            #expect(run.status == 1, "status \(String(describing: run.status)) (nil: hung); \(run.stderr)")
            #expect(run.stderr.hasPrefix("openvision: error: ") && run.stderr.contains("[connection]"), "\(run.stderr)")
            #expect(!run.stderr.contains("Generic description"), "a message for people: \(run.stderr)")
        }
    }

    /// No password for a server that asks for SCRAM: an error at once (as a wrong password is), not retries.
    @Test(arguments: ["worker", "jobs"]) func noPasswordForAServerThatAsksForOneEndsAtOnce(_ command: String)
        async throws
    {
        let server = try FakePostgresServer(mode: .scram)
        defer { server.stop() }
        let url = "postgres://alice@127.0.0.1:\(server.port)/db"
        let arguments =
            command == "worker" ? ["worker", "--db", url, "--streams", "0"] : ["jobs", "status", "--db", url]
        let run = try await BoundedProcess.run(arguments, seconds: 60, environment: ["PGPASSWORD": nil])
        #expect(
            run.status == 1,
            "status \(String(describing: run.status)) (nil: still retrying after 60 s); \(run.stderr.suffix(1500))")
        #expect(run.stderr.contains("password") && run.stderr.contains("PGPASSWORD"), "\(run.stderr.suffix(1500))")
        #expect(server.connections == 1, "tried \(server.connections) times")
    }

    /// A worker started while the database is down stops on SIGTERM as documented: 143, not 1, and without
    /// finishing its reconnect backoff first.
    @Test func aWorkerWaitingForTheDatabaseExits143OnSIGTERM() async throws {
        let port = try Self.closedPort()
        let file = Self.log("down-worker")
        defer { try? FileManager.default.removeItem(at: file) }
        let worker = try BoundedProcess(
            ["worker", "--db", "postgres://u@127.0.0.1:\(port)/db", "--streams", "0"], stderr: file)
        let waiting = await BoundedProcess.eventually(60) { worker.stderr.contains("database unavailable") }
        #expect(waiting, "\(worker.stderr)")
        // Into the backoff's longer waits (0.1 s doubling to 5 s).
        try await Task.sleep(for: .seconds(3))
        worker.signal(SIGTERM)
        let status = await worker.wait(60)
        #expect(status == 143, "status \(String(describing: status)); \(worker.stderr.suffix(1500))")
        #expect(!worker.stderr.contains("openvision: error"), "\(worker.stderr.suffix(1500))")
    }

    /// Values that trapped (Int(inf), Int32(2^31)) or exhausted the machine (10^11 slots) are refused before
    /// anything starts: exit 64 and a message naming the option.
    @Test(arguments: [
        (["--lease", "inf"], "--lease"), (["--lease", "1e300"], "--lease"), (["--poll", "1e300"], "--poll"),
        (["--poll", "nan"], "--poll"), (["--retry-backoff", "inf"], "--retry-backoff"),
        (["--stop-timeout", "inf"], "--stop-timeout"),
        (["--concurrency", "100000000000"], "--concurrency"), (["--streams", "100000000000"], "--streams"),
    ])
    func workerOptionsOutOfRangeAreRefused(_ extra: [String], _ option: String) async throws {
        let port = try Self.closedPort()
        let run = try await BoundedProcess.run(
            ["worker", "--db", "postgres://u@127.0.0.1:\(port)/db"] + extra, seconds: 60)
        #expect(run.status == 64, "\(extra): status \(String(describing: run.status)); \(run.stderr.suffix(800))")
        #expect(run.stderr.contains(option), "\(run.stderr.suffix(800))")
    }

    @Test(arguments: [
        ["jobs", "submit", "--max-attempts", "2147483648", "/tmp/x.png"],
        ["jobs", "submit-stream", "--max-attempts", "2147483648", "rtsp://camera/1"],
        ["jobs", "submit", "--max-attempts", "0", "/tmp/x.png"],
    ])
    func submitAttemptsOutOfRangeAreRefused(_ arguments: [String]) async throws {
        let port = try Self.closedPort()
        let run = try await BoundedProcess.run(arguments + ["--db", "postgres://u@127.0.0.1:\(port)/db"], seconds: 60)
        #expect(
            run.status == 64 && run.stderr.contains("--max-attempts"),
            "status \(String(describing: run.status)); \(run.stderr)")
    }

    /// A port above 65535 was wrapped (99999 → 34463) and connected there.
    @Test func aPortOutOfRangeIsRefused() async throws {
        let run = try await BoundedProcess.run(
            ["jobs", "status", "--db", "postgres://u@127.0.0.1:99999/db"], seconds: 60)
        #expect(
            run.status == 64 && run.stderr.contains("port 99999"),
            "status \(String(describing: run.status)); \(run.stderr)")
    }
}
