import Foundation
import Synchronization

/// A worker process's loop: `concurrency` slots claiming image jobs and `streams` slots claiming
/// stream jobs, each on its own connection, and one heartbeat renewing the leases held.
///
/// - A job is claimed under a lease (`JobStore.claim`) and the heartbeat extends it every third of
///   the lease while the job runs; a worker that dies stops renewing, and after at most one lease
///   another worker claims the job again (at-least-once). Results are written once per job id.
/// - A lost connection (database restart, network, a statement without an answer by its deadline) is
///   retried with a backoff: claims wait, and a finished job's result or error is kept in memory and
///   written once the database is back. Repeated log lines are rate-limited (`LogLimiter`).
/// - At start the worker reads the server's `max_connections`: slots that could never all connect
///   (`concurrency` + 2 × `streams` + 1 connections) are refused with `.invalidInput`.
/// - `stop()` (SIGTERM) stops claiming at once (waits in progress end); image jobs in flight finish and
///   are written, stream jobs are cancelled and released (back to `queued` without counting the
///   attempt); then `run()` returns, after `stopTimeout` at the latest: work still in flight then is
///   abandoned (`stoppedWithWorkInFlight`; its leases lapse and the jobs run again elsewhere).
public final class JobWorker: Sendable {
    /// What a worker runs and how (every default is documented on its property).
    public struct Configuration: Sendable {
        /// The job database.
        public var database: DatabaseURL
        /// Written into `locked_by` and `worker`: host:pid:random by default.
        public var id: String
        /// Image jobs analysed at once (0...`JobWorker.maximumSlots`).
        public var concurrency = 1
        /// Stream jobs owned at once (0...`JobWorker.maximumSlots`).
        public var streams = 1
        /// How long a claim holds a job without renewal (1 s ... 1 day).
        public var lease: Duration = .seconds(30)
        /// Wait between claims when the queue has nothing claimable (1 ms ... 1 hour).
        public var poll: Duration = .milliseconds(500)
        /// A failed attempt's job is retried after backoff × 2^(attempt−1), at most `JobStore.maximumRetryDelay` (0 ... 1 day).
        public var retryBackoff: Duration = .seconds(1)
        /// Longest wait between reconnect attempts (10 ms ... 1 hour).
        public var maxReconnectBackoff: Duration = .seconds(5)
        /// After `stop()`, the longest `run()` waits for jobs in flight and their writes (0 ... 1 hour).
        public var stopTimeout: Duration = .seconds(20)
        /// Return from `run()` once nothing of the kinds this worker runs is queued or running.
        public var exitWhenDrained = false
        /// Whether the worker's commits wait for the WAL flush (PostgreSQL's `synchronous_commit`). Off by
        /// default: a commit lost in a database crash (the last ~0.6 s) is a claim or a result that never
        /// happened, so its job is claimed and run again once its lease expires, and the result is still
        /// written once (at-least-once, idempotent on the job id). On: each claim and result waits for fsync.
        public var synchronousCommit = false

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(database: DatabaseURL, id: String = JobWorker.defaultID()) {
            self.database = database
            self.id = id
        }

        /// Throws `.invalidInput` for a value out of its range (each field's comment has it).
        public func validate() throws {
            func check(_ ok: Bool, _ message: String) throws { if !ok { throw JobsError(.invalidInput, message) } }
            try check(
                (0...JobWorker.maximumSlots).contains(concurrency) && (0...JobWorker.maximumSlots).contains(streams),
                "concurrency and streams must be 0...\(JobWorker.maximumSlots), got \(concurrency) and \(streams)")
            try check(concurrency + streams > 0, "concurrency plus streams must be at least 1")
            try check(lease >= .seconds(1) && lease <= .seconds(86400), "the lease must be 1 s ... 1 day, got \(lease)")
            try check(
                poll >= .milliseconds(1) && poll <= .seconds(3600),
                "the poll interval must be 1 ms ... 1 hour, got \(poll)")
            try check(
                retryBackoff >= .zero && retryBackoff <= .seconds(86400),
                "the retry backoff must be 0 ... 1 day, got \(retryBackoff)")
            try check(
                maxReconnectBackoff >= .milliseconds(10) && maxReconnectBackoff <= .seconds(3600),
                "the reconnect backoff must be 10 ms ... 1 hour, got \(maxReconnectBackoff)")
            try check(
                stopTimeout >= .zero && stopTimeout <= .seconds(3600),
                "the stop timeout must be 0 ... 1 hour, got \(stopTimeout)")
        }

        /// Connections the worker may hold at once: one per slot, one more per stream slot (its frames), one heartbeat.
        public var connectionsNeeded: Int { concurrency + 2 * streams + 1 }
    }

    /// The most image (or stream) slots one worker runs: each is a connection, and a server's
    /// `max_connections` is usually 100.
    public static let maximumSlots = 1000

    /// What this worker has done so far.
    public struct Stats: Sendable {
        /// Jobs finished successfully.
        public var succeeded = 0
        /// Jobs failed on their last attempt.
        public var failed = 0
        /// Failed attempts put back to `queued` for another try.
        public var retried = 0
        /// Jobs whose lease lapsed while this worker held them.
        public var lostLeases = 0
    }

    /// The options this worker runs with.
    public let configuration: Configuration
    private let runner: any JobRunner
    private let log: @Sendable (String) -> Void
    private let limited: LogLimiter
    private let stopSignal = StopSignal()
    private let stopDeadline = Mutex<ContinuousClock.Instant?>(nil)
    private let abandoned = Atomic<Bool>(false)
    private let leftIdle = Atomic<Bool>(false)
    private let drained = Atomic<Int>(0)
    private let held = Mutex<[Int64: Lease]>([:])
    private let counters = Mutex(Stats())

    private struct Lease {
        var cancel: (@Sendable () -> Void)?
        var lost = false
    }

    /// A worker claiming jobs as `configuration` says and running them with `runner`; `log` receives its
    /// log lines. Nothing starts before `run()`.
    public init(
        configuration: Configuration, runner: any JobRunner, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.runner = runner
        self.log = log
        limited = LogLimiter(sink: log)
    }

    /// host:pid:8 random hex digits.
    public static func defaultID() -> String {
        let host = ProcessInfo.processInfo.hostName
        return "\(host):\(getpid()):\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// A snapshot of what the worker has done so far.
    public var stats: Stats { counters.withLock { $0 } }

    /// True when `run()` returned at `stopTimeout` with jobs or writes still in flight (they were abandoned:
    /// their leases lapse and other workers run them again).
    public var stoppedWithWorkInFlight: Bool { abandoned.load(ordering: .sequentiallyConsistent) }

    /// True when `run()` returned after `stop()` while a slot was still talking to the database with no job in hand
    /// (a claim or a connection attempt that had not answered): an idle worker does not wait for its connections.
    /// A claim the server completed meanwhile is lost with the process; its lease lapses and the job runs again.
    public var stoppedWithConnectionsOpen: Bool { leftIdle.load(ordering: .sequentiallyConsistent) }

    /// Stops claiming and winds down (see the type's notes); `run()` then returns within `stopTimeout`.
    public func stop() {
        let first = stopDeadline.withLock { deadline -> Bool in
            guard deadline == nil else { return false }
            deadline = .now + configuration.stopTimeout
            return true
        }
        guard first else { return }
        stopSignal.set()
        let cancels = held.withLock { $0.values.compactMap(\.cancel) }
        for cancel in cancels { cancel() }
    }

    private var isStopping: Bool { stopSignal.isSet }

    /// After `stop()`, once `stopTimeout` has passed: writes in flight give up.
    private var stopTimeIsUp: Bool {
        stopDeadline.withLock { $0 }.map { ContinuousClock.now >= $0 } ?? false
    }

    /// Migrates the schema, then claims and runs jobs until `stop()` (or, with `exitWhenDrained`, the queue
    /// is done). Throws `.invalidInput` for a configuration out of range or slots the server's connections
    /// cannot hold, and a non-transient error of the start (credentials, a schema too new); a worker
    /// stopped while it waits for the database returns normally.
    public func run() async throws {
        try configuration.validate()
        let setup = session("setup")
        let limits: ConnectionLimits
        do {
            // A statement the server never answers (a connection that closed under it) holds the setup until its
            // deadline: a worker stopped meanwhile has nothing in hand and leaves without it.
            let setupWork = Task { [stopSignal] in
                try await setup.persistently(giveUp: { stopSignal.isSet }, wakingOn: stopSignal) { store in
                    try await store.migrate()
                    return try await store.connectionLimits()
                }
            }
            guard let answered = try await untilStopped({ try await setupWork.value }) else {
                leftIdle.store(true, ordering: .sequentiallyConsistent)
                log("worker \(configuration.id): stopped while setting up; the statement not answered is left")
                limited.flush()
                return
            }
            limits = answered
            await setup.close()
        } catch {
            await setup.close()
            limited.flush()
            if isStopping { return }
            throw error
        }
        let needed = configuration.connectionsNeeded
        guard needed <= limits.available else {
            throw JobsError(
                .invalidInput,
                """
                \(configuration.concurrency) image slot(s) and \(configuration.streams) stream slot(s) need \(needed) connections \
                (one per slot, one more per stream slot, one heartbeat); the server allows \(limits.available) \
                (max_connections \(limits.maxConnections) less \(limits.reserved) reserved): use fewer slots or raise max_connections
                """)
        }
        let free = limits.available - limits.open + 1  // the setup connection is closed now
        if needed > free {
            log(
                "worker \(configuration.id): needs \(needed) connections and \(max(free, 0)) are free now; slots without one wait and retry"
            )
        }
        let slots = configuration.concurrency + configuration.streams
        log(
            "worker \(configuration.id): \(configuration.concurrency) image slot(s), \(configuration.streams) stream slot(s), lease \(configuration.lease)"
        )
        let heartbeat = Task { await self.heartbeat() }
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<configuration.concurrency {
                    group.addTask { await self.slot(kind: .image, name: "slot \(index)", slots: slots) }
                }
                for index in 0..<configuration.streams {
                    group.addTask { await self.slot(kind: .stream, name: "stream slot \(index)", slots: slots) }
                }
                await group.waitForAll()
            }
            heartbeat.cancel()
            _ = await heartbeat.result
        }
        // Whichever comes first: every slot done, or stopTimeout after stop().
        let race = Race<Bool>()
        let finisher = Task {
            await work.value
            _ = race.decide(.success(true))
        }
        let watchdog = Task {
            await stopSignal.wait()
            guard !Task.isCancelled else { return }
            // Nothing in hand (no job, no write): the slots get a moment to close their connections, then the worker
            // leaves without waiting for a claim or a connection that does not answer. With work in hand, it waits
            // for that work up to stopTimeout, and leaves as soon as the last of it is done.
            let deadline = ContinuousClock.now + configuration.stopTimeout
            let grace = ContinuousClock.now + min(configuration.stopTimeout, .milliseconds(250))
            while !Task.isCancelled, ContinuousClock.now < deadline {
                if ContinuousClock.now >= grace, held.withLock({ $0.isEmpty }) {
                    leftIdle.store(true, ordering: .sequentiallyConsistent)
                    _ = race.decide(.success(false))
                    return
                }
                try? await Task.sleep(for: .milliseconds(25))
            }
            guard !Task.isCancelled else { return }
            _ = race.decide(.success(false))
        }
        let finished = (try? await race.outcome()) ?? true
        watchdog.cancel()
        if finished {
            await finisher.value
        } else if leftIdle.load(ordering: .sequentiallyConsistent) {
            heartbeat.cancel()
            log("worker \(configuration.id): stopped with no job in hand; claims or connections not answered are left")
        } else {
            heartbeat.cancel()
            abandoned.store(true, ordering: .sequentiallyConsistent)
            let inFlight = held.withLock { $0.count }
            log(
                "worker \(configuration.id): stopped after \(configuration.stopTimeout) with \(inFlight) job(s) or write(s) in flight; their leases lapse and they run again"
            )
        }
        limited.flush()
    }

    /// `work`'s value, or nil when `stop()` came first and `work` had not finished a quarter of a second later (it is
    /// then left running; the caller must not wait for it).
    private func untilStopped<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let race = Race<T?>()
        let worker = Task {
            do { _ = race.decide(.success(try await work())) } catch { _ = race.decide(.failure(error)) }
        }
        let watcher = Task { [stopSignal] in
            await stopSignal.wait()
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: .milliseconds(250))
            guard !Task.isCancelled else { return }
            _ = race.decide(.success(nil))
        }
        defer { watcher.cancel() }
        _ = worker
        return try await race.outcome()
    }

    /// A connection of its own; `statementTimeout` shortens the URL's (never lengthens it).
    private func session(_ name: String, statementTimeout: Duration? = nil) -> DatabaseSession {
        var url = configuration.database
        if let statementTimeout { url.statementTimeout = min(url.statementTimeout, statementTimeout) }
        return DatabaseSession(
            url: url, name: "worker \(configuration.id) \(name)",
            maxBackoff: configuration.maxReconnectBackoff, synchronousCommit: configuration.synchronousCommit,
            log: limited)
    }

    /// One slot: claim, run, record, until stopping.
    private func slot(kind: JobKind, name: String, slots: Int) async {
        let db = session(name)
        var idle = false
        claiming: while !isStopping {
            let job: ClaimedJob?
            do {
                job = try await db.persistently(giveUp: { isStopping }, wakingOn: stopSignal) {
                    try await $0.claim(kind: kind, worker: configuration.id, lease: configuration.lease)
                }
            } catch {
                if !isStopping {
                    limited("claim failed", "\(name): claim failed: \(error)")
                    await stopSignal.sleep(for: configuration.poll)
                }
                continue
            }
            guard let job else {
                if configuration.exitWhenDrained, await isDrained(db, kind: kind) {
                    // Every slot of this worker must see it: a slot alone stops when all have.
                    if !idle {
                        idle = true
                        drained.add(1, ordering: .sequentiallyConsistent)
                    }
                    if drained.load(ordering: .sequentiallyConsistent) >= slots { break claiming }
                }
                await stopSignal.sleep(for: configuration.poll)
                continue
            }
            if idle {
                idle = false
                drained.subtract(1, ordering: .sequentiallyConsistent)
            }
            switch kind {
            case .image: await runImage(job, db: db)
            case .stream: await runStream(job, db: db, name: name)
            }
        }
        await db.close()
    }

    private func isDrained(_ db: DatabaseSession, kind: JobKind) async -> Bool {
        guard let counts = try? await db.once({ try await $0.counts(kind: kind) }) else { return false }
        return counts[.queued] == 0 && counts[.running] == 0
    }

    private func runImage(_ job: ClaimedJob, db: DatabaseSession) async {
        held.withLock { $0[job.id] = Lease() }
        defer { _ = held.withLock { $0.removeValue(forKey: job.id) } }
        let outcome: Result<String, any Error>
        do { outcome = .success(try await runner.runImage(job)) } catch { outcome = .failure(error) }
        await record(job, outcome, db: db)
    }

    private func runStream(_ job: ClaimedJob, db: DatabaseSession, name: String) async {
        let frames = StreamFrames(job: job.id, worker: configuration.id, session: session("\(name) frames"))
        let runner = self.runner
        let task = Task { try await runner.runStream(job, frames: frames) }
        held.withLock { $0[job.id] = Lease(cancel: { task.cancel() }) }
        // Held until released or recorded: a stopping worker waits for that (and for nothing else).
        defer { _ = held.withLock { $0.removeValue(forKey: job.id) } }
        // stop() may have run between the claim and the registration above.
        if isStopping { task.cancel() }
        log("\(name): stream job \(job.id) (\(job.input)) started, attempt \(job.attempt)")
        let outcome = await task.result
        await frames.close()
        let lost = held.withLock { $0[job.id]?.lost ?? false }
        if lost {
            log("\(name): stream job \(job.id) lease lost; stopped it")
            return
        }
        if isStopping, task.isCancelled {
            do {
                try await db.persistently(giveUp: { stopTimeIsUp }) {
                    try await $0.release(job.id, worker: configuration.id)
                }
                log("\(name): stream job \(job.id) released")
            } catch {
                log(
                    "\(name): releasing stream job \(job.id) failed (\(error)); it returns to the queue when its lease expires"
                )
            }
            return
        }
        await record(job, outcome, db: db)
    }

    /// Writes a finished attempt: the result, or the error (retried or failed). Retries through
    /// database outages (after `stop()`, until `stopTimeout`); a statement the server rejects (e.g. a
    /// result that is not JSON) fails the attempt.
    private func record(_ job: ClaimedJob, _ outcome: Result<String, any Error>, db: DatabaseSession) async {
        let worker = configuration.id
        var message: String
        switch outcome {
        case .success(let json):
            do {
                if try await db.persistently(
                    giveUp: { stopTimeIsUp }, { try await $0.complete(job.id, worker: worker, result: json) })
                {
                    counters.withLock { $0.succeeded += 1 }
                } else {
                    counters.withLock { $0.lostLeases += 1 }
                    log("job \(job.id): lease lost before its result was written; the worker holding it now writes it")
                }
                return
            } catch let error as JobsError where error.isTransient {
                log("job \(job.id): storing its result failed (\(error)); it runs again when its lease expires")
                return
            } catch {
                message = "storing the result failed: \(error)"
            }
        case .failure(let error):
            message = "\(error)"
        }
        do {
            let state = try await db.persistently(giveUp: { stopTimeIsUp }) {
                try await $0.fail(job.id, worker: worker, error: message, backoff: configuration.retryBackoff)
            }
            switch state {
            case .failed?:
                counters.withLock { $0.failed += 1 }
                log("job \(job.id) failed after \(job.attempt) attempt(s): \(message)")
            case .queued?:
                counters.withLock { $0.retried += 1 }
                log("job \(job.id) attempt \(job.attempt) of \(job.maxAttempts) failed, retrying: \(message)")
            default:
                counters.withLock { $0.lostLeases += 1 }
            }
        } catch {
            log("job \(job.id): recording its error failed (\(error)); it is retried when its lease expires")
        }
    }

    /// Renews the leases held every third of the lease (each statement given at most that long); cancels
    /// streams whose lease was lost; fails jobs whose last attempt's lease expired (`JobStore.failExpired`)
    /// about once per lease.
    private func heartbeat() async {
        let interval = max(configuration.lease / 3, .milliseconds(100))
        // A renewal stuck on a dead connection is given up within a beat, so the next beat still renews in time.
        let db = session("heartbeat", statementTimeout: interval)
        var lastSweep = ContinuousClock.now - configuration.lease
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { break }
            let ids = held.withLock { Array($0.keys) }
            do {
                let kept = try await db.once {
                    try await $0.renew(ids, worker: configuration.id, lease: configuration.lease)
                }
                let lost = held.withLock { table -> [@Sendable () -> Void] in
                    var cancels: [@Sendable () -> Void] = []
                    for id in ids where !kept.contains(id) {
                        guard table[id] != nil else { continue }  // finished meanwhile
                        table[id]?.lost = true
                        if let cancel = table[id]?.cancel { cancels.append(cancel) }
                    }
                    return cancels
                }
                for cancel in lost { cancel() }
                if ContinuousClock.now - lastSweep >= configuration.lease {
                    lastSweep = ContinuousClock.now
                    let failed = try await db.once { try await $0.failExpired() }
                    if failed > 0 { log("heartbeat: \(failed) job(s) failed: their last attempt's lease expired") }
                }
            } catch {
                // The slots report the outage; the next beat reconnects.
            }
        }
        await db.close()
    }
}
