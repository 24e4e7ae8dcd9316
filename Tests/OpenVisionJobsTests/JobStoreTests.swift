import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVisionJobs

/// The queue's statements against a real PostgreSQL (a private cluster, one database per test):
/// migrations, the claim under `FOR UPDATE SKIP LOCKED`, leases, retries and the guarded writes.
@Suite(
    .enabled(
        if: RequiredTools.runs(PostgresCluster.available),
        "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct JobStoreTests {
    /// A store on a fresh database of the shared cluster, migrated.
    static func freshStore(migrate: Bool = true) async throws -> (JobStore, String) {
        let cluster = try PostgresCluster.shared.get()
        let url = try cluster.createDatabase()
        let store = try await JobStore.connect(try DatabaseURL(url))
        if migrate { try await store.migrate() }
        return (store, url)
    }

    @Test func migrationIsIdempotentAndSerialisedAcrossConnections() async throws {
        let (first, plain) = try await Self.freshStore(migrate: false)
        defer { Task { await first.close() } }
        // Five of the six wait on the migration lock while one migrates: on a loaded machine (the whole suite on two
        // cores) that took past the default 30 s statement deadline, so these connections allow 180 s.
        let url = plain + (plain.contains("?") ? "&" : "?") + "statement_timeout=180"
        // Six connections migrate a new database at once: one applies version 1, the others find it done.
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let store = try await JobStore.connect(try DatabaseURL(url))
                    let versions = try await store.migrate()
                    await store.close()
                    return versions
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(applied.filter { $0 == [1] }.count == 1)
        #expect(applied.filter(\.isEmpty).count == 5)
        #expect(try await first.migrate() == [])
        let versions = try PostgresCluster.shared.get().psql(
            "SELECT string_agg(version::text, ',') FROM openvision_schema_version",
            database: PostgresCluster.database(in: url))
        #expect(versions == "1")
        #expect(JobSchema.currentVersion == 1)
    }

    @Test func newerSchemaIsRefused() async throws {
        let (store, url) = try await Self.freshStore()
        defer { Task { await store.close() } }
        try PostgresCluster.shared.get().psql(
            "INSERT INTO openvision_schema_version (version) VALUES (99)", database: PostgresCluster.database(in: url))
        await #expect { try await store.migrate() } throws: { ($0 as? JobsError)?.code == .schemaTooNew }
    }

    @Test func claimsAreExclusiveAndResultsWrittenOnce() async throws {
        let (store, url) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(
            kind: .image, inputs: (0..<200).map { "/img/\($0).png" }, options: "{}", maxAttempts: 3)
        #expect(ids.count == 200)
        #expect(ids == ids.sorted())
        // Eight connections claim and complete concurrently: no job is claimed twice, every job gets one result.
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for w in 0..<8 {
                group.addTask {
                    let s = try await JobStore.connect(try DatabaseURL(url))
                    var mine: [Int64] = []
                    while let job = try await s.claim(kind: .image, worker: "w\(w)", lease: .seconds(60)) {
                        #expect(job.attempt == 1)
                        #expect(try await s.complete(job.id, worker: "w\(w)", result: #"{"image":"\#(job.input)"}"#))
                        mine.append(job.id)
                    }
                    await s.close()
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 200)
        #expect(Set(claimed) == Set(ids))
        #expect(try await store.counts() == [.queued: 0, .running: 0, .succeeded: 200, .failed: 0])
        let lines = try await store.results(states: [.succeeded])
        #expect(lines.count == 200)
        #expect(lines[0].json.contains(#""result": {"image": "/img/0.png"}"#))
        // A second completion of a finished job writes nothing.
        #expect(try await store.complete(ids[0], worker: "w0", result: "{}") == false)
        #expect(try await store.complete(ids[0], worker: "w1", result: "{}") == false)
        #expect(try await store.claim(kind: .image, worker: "late", lease: .seconds(5)) == nil)
    }

    @Test func expiredLeaseMovesTheJobAndFencesTheOldHolder() async throws {
        let (store, _) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(kind: .image, inputs: ["/a.png"], options: "{}", maxAttempts: 3)
        let a = try #require(try await store.claim(kind: .image, worker: "A", lease: .seconds(600)))
        #expect(a.id == ids[0] && a.attempt == 1)
        // Held: nobody else gets it.
        #expect(try await store.claim(kind: .image, worker: "B", lease: .seconds(30)) == nil)
        // Renewal keeps it only for its holder.
        #expect(try await store.renew([a.id], worker: "B", lease: .seconds(600)) == [])
        #expect(try await store.renew([a.id], worker: "A", lease: .seconds(600)) == [a.id])
        // A stops renewing (dies): its lease runs out (set to end now, so no clock is involved); B claims
        // it as attempt 2 in a later transaction (now() moves on).
        #expect(try await store.renew([a.id], worker: "A", lease: .zero) == [a.id])
        var b: ClaimedJob?
        let deadline = ContinuousClock.now + .seconds(60)
        while b == nil, ContinuousClock.now < deadline {
            b = try await store.claim(kind: .image, worker: "B", lease: .seconds(600))
            if b == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let moved = try #require(b)
        #expect(moved.id == a.id && moved.attempt == 2)
        // The old holder can neither complete, fail nor renew it any more.
        #expect(try await store.complete(a.id, worker: "A", result: #"{"by":"A"}"#) == false)
        #expect(try await store.fail(a.id, worker: "A", error: "late", backoff: .zero) == nil)
        #expect(try await store.renew([a.id], worker: "A", lease: .seconds(30)) == [])
        #expect(try await store.complete(a.id, worker: "B", result: #"{"by":"B"}"#))
        let lines = try await store.results(states: [.succeeded])
        #expect(lines.count == 1)
        #expect(lines[0].json.contains(#""worker": "B""#) && lines[0].json.contains(#""attempts": 2"#))
    }

    @Test func failedAttemptsRetryThenFailWithTheErrorAndRetryRequeues() async throws {
        let (store, _) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(
            kind: .image, inputs: ["/poison.png", "/good.png"], options: #"{"requests":"barcodes"}"#, maxAttempts: 2)
        let first = try #require(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)))
        #expect(first.id == ids[0] && first.options == #"{"requests": "barcodes"}"#)
        #expect(
            try await store.fail(first.id, worker: "W", error: "bad image [invalidImage]", backoff: .zero) == .queued)
        let second = try #require(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)))
        #expect(second.id == ids[0] && second.attempt == 2)
        #expect(
            try await store.fail(second.id, worker: "W", error: "bad image again [invalidImage]", backoff: .zero)
                == .failed)
        // Out of attempts: never claimed again; the next claim is the good job.
        let next = try #require(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)))
        #expect(next.id == ids[1])
        let failed = try await store.results(states: [.failed])
        #expect(failed.count == 1)
        #expect(
            failed[0].json.contains(#""error": "bad image again [invalidImage]""#)
                && failed[0].json.contains(#""attempts": 2"#))
        // A backoff keeps a retried job out of reach until it is due.
        #expect(try await store.fail(next.id, worker: "W", error: "flaky", backoff: .seconds(3600)) == .queued)
        #expect(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)) == nil)
        // retry: failed jobs back to queued, attempts reset.
        #expect(try await store.retryFailed() == 1)
        let again = try #require(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)))
        #expect(again.id == ids[0] && again.attempt == 1)
        #expect(try await store.counts(kind: .image) == [.queued: 1, .running: 1, .succeeded: 0, .failed: 0])
    }

    @Test func lastAttemptsExpiredLeaseFailsTheJob() async throws {
        let (store, _) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(
            kind: .image, inputs: ["/crashes-the-worker.png"], options: "{}", maxAttempts: 1)
        _ = try #require(try await store.claim(kind: .image, worker: "dead", lease: .seconds(1)))
        var swept = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while swept == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            swept = try await store.failExpired()
        }
        #expect(swept == 1)
        let failed = try await store.results(states: [.failed])
        #expect(failed.map(\.id) == ids)
        #expect(failed[0].json.contains("lease of attempt 1 expired (worker dead"))
    }

    /// Issue 28, item 9: `--max-attempts 2147483648` trapped in `Int32(_:)`; the library refuses it too.
    @Test func attemptsBeyondTheLimitAreRefused() async throws {
        let (store, _) = try await Self.freshStore()
        defer { Task { await store.close() } }
        for attempts in [0, -1, JobStore.maximumAttempts + 1, 2_147_483_648, Int.max] {
            await #expect {
                _ = try await store.submit(kind: .image, inputs: ["/a.png"], options: "{}", maxAttempts: attempts)
            } throws: {
                ($0 as? JobsError)?.code == .invalidInput
            }
        }
        #expect(
            try await store.submit(
                kind: .image, inputs: ["/a.png"], options: "{}", maxAttempts: JobStore.maximumAttempts
            ).count == 1)
    }

    /// backoff × 2^(attempt−1) overflowed PostgreSQL's interval from attempt ~53 ("interval out of range"): the
    /// failure could not be recorded and the job sat in `running` until its lease expired. The wait is capped
    /// at `JobStore.maximumRetryDelay` (1 day).
    @Test func aLateRetrysBackoffIsCapped() async throws {
        let (store, url) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(kind: .image, inputs: ["/flaky.png"], options: "{}", maxAttempts: 1000)
        try PostgresCluster.shared.get().psql(
            "UPDATE openvision_jobs SET attempts = 600 WHERE id = \(ids[0])",
            database: PostgresCluster.database(in: url))
        let job = try #require(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)))
        #expect(job.attempt == 601)
        #expect(try await store.fail(job.id, worker: "W", error: "flaky", backoff: .seconds(86400)) == .queued)
        // run_after − now: one day (86400 s), give or take the statement's own time.
        let wait = try PostgresCluster.shared.get().psql(
            "SELECT round(extract(epoch FROM run_after - now()) / 60) FROM openvision_jobs WHERE id = \(ids[0])",
            database: PostgresCluster.database(in: url))
        #expect(wait == "1440", "minutes until the retry: \(wait)")
    }

    @Test func releaseReturnsAStreamWithoutCountingTheAttempt() async throws {
        let (store, _) = try await Self.freshStore()
        defer { Task { await store.close() } }
        let ids = try await store.submit(kind: .stream, inputs: ["rtsp://camera/1"], options: "{}", maxAttempts: 3)
        #expect(try await store.claim(kind: .image, worker: "W", lease: .seconds(30)) == nil)
        let job = try #require(try await store.claim(kind: .stream, worker: "W", lease: .seconds(30)))
        #expect(job.id == ids[0] && job.kind == .stream)
        try await store.appendFrame(job: job.id, worker: "W", frame: 0, result: #"{"frame":0}"#)
        try await store.release(job.id, worker: "W")
        let again = try #require(try await store.claim(kind: .stream, worker: "V", lease: .seconds(30)))
        #expect(again.attempt == 1)
        let frames = try await store.frames(job: job.id)
        #expect(frames.count == 1 && frames[0].json.contains(#""worker": "W""#))
    }
}

/// `--db` URLs, without a database.
@Suite struct DatabaseURLTests {
    @Test func parsesTCPAndSocketForms() throws {
        let tcp = try DatabaseURL("postgres://alice:s%40cret@db.example:6543/vision", environment: [:])
        #expect(
            tcp.host == "db.example" && tcp.port == 6543 && tcp.username == "alice" && tcp.password == "s@cret"
                && tcp.database == "vision")
        #expect(tcp.socketDirectory == nil)
        #expect(!tcp.description.contains("s@cret"))
        let socket = try DatabaseURL("postgresql:///jobs?host=/tmp/pg", environment: ["PGUSER": "bob"])
        #expect(
            socket.socketDirectory == "/tmp/pg" && socket.port == 5432 && socket.username == "bob"
                && socket.database == "jobs")
        let port = try DatabaseURL("postgres://u@/jobs?host=/tmp/pg&port=6000", environment: [:])
        #expect(
            port.socketDirectory == "/tmp/pg" && port.port == 6000 && port.username == "u" && port.database == "jobs")
        let bare = try DatabaseURL("postgres://", environment: [:])
        #expect(bare.socketDirectory == "/var/run/postgresql" && bare.username == "postgres" && bare.database == nil)
    }

    @Test func refusesOtherSchemesAndTLS() {
        #expect { try DatabaseURL("mysql://x/y", environment: [:]) } throws: { ($0 as? JobsError)?.code == .invalidURL }
        #expect { try DatabaseURL("postgres://h/d?sslmode=require", environment: [:]) } throws: {
            ($0 as? JobsError)?.code == .invalidURL
        }
    }

    /// A port out of 1...65535 (in the authority, `?port=` or `$PGPORT`) was wrapped into range by the socket address.
    @Test(arguments: [
        "postgres://h:99999/d", "postgres://h:0/d", "postgres://u@/d?host=/tmp&port=70000",
        "postgres://u@/d?host=/tmp&port=x",
    ])
    func refusesPortsOutOfRange(_ text: String) {
        #expect { try DatabaseURL(text, environment: [:]) } throws: {
            ($0 as? JobsError)?.code == .invalidURL && ($0 as? JobsError)?.message.contains("port") == true
        }
    }

    @Test func refusesAPGPORTOutOfRange() throws {
        #expect { try DatabaseURL("postgres://h/d", environment: ["PGPORT": "123456"]) } throws: {
            ($0 as? JobsError)?.code == .invalidURL
        }
        #expect(try DatabaseURL("postgres://h/d", environment: ["PGPORT": "6000"]).port == 6000)
    }

    /// `connect_timeout` (libpq's) and `statement_timeout`: seconds, finite, positive, at most an hour.
    @Test func readsTheDeadlines() throws {
        let defaults = try DatabaseURL("postgres://h/d", environment: [:])
        #expect(defaults.connectTimeout == .seconds(10) && defaults.statementTimeout == .seconds(30))
        let set = try DatabaseURL("postgres://h/d?connect_timeout=2&statement_timeout=0.5", environment: [:])
        #expect(set.connectTimeout == .seconds(2) && set.statementTimeout == .milliseconds(500))
        for bad in [
            "connect_timeout=0", "connect_timeout=-1", "statement_timeout=inf", "statement_timeout=nan",
            "statement_timeout=1e300",
            "connect_timeout=abc", "statement_timeout=3601",
        ] {
            #expect { try DatabaseURL("postgres://h/d?\(bad)", environment: [:]) } throws: {
                ($0 as? JobsError)?.code == .invalidURL
            }
        }
    }

    @Test func unreachableServerIsAConnectionError() async {
        await #expect { try await JobStore.connect(try DatabaseURL("postgres://postgres@127.0.0.1:1/x")) } throws: {
            ($0 as? JobsError)?.code == .connection
        }
    }
}
