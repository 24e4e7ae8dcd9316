import Foundation
import Logging
import PostgresNIO

/// The queue's statements on one connection: submit, claim under a lease, complete, fail, renew,
/// release, and the read-outs of `openvision jobs`.
///
/// Every state change a worker makes is guarded by its lease (`locked_by` = the worker, `state` =
/// `running`): a worker whose lease expired and whose job another worker claimed changes nothing,
/// and a result is inserted once per job id (`ON CONFLICT DO NOTHING`). Errors are `JobsError`s.
/// The connection's set-up and every statement have a deadline (`DatabaseURL.connectTimeout`,
/// `.statementTimeout`): past it the connection is closed and the call throws `.connection` at once,
/// whether or not PostgresNIO ever answers (a statement written to a connection that closed under it
/// is never answered). Not safe for concurrent use from several tasks at once: a worker holds one store per slot.
public final class JobStore: Sendable {
    /// The store's open PostgreSQL connection.
    public let connection: PostgresConnection
    let logger: Logger
    /// How long a statement may go unanswered before the connection is closed.
    let statementTimeout: Duration

    /// The most attempts a job may be given (`submit`'s `maxAttempts`).
    public static let maximumAttempts = 1000
    /// The longest wait before a failed job's retry: backoff × 2^(attempt−1) is capped here.
    public static let maximumRetryDelay: Duration = .seconds(86400)

    init(connection: PostgresConnection, logger: Logger, statementTimeout: Duration) {
        self.connection = connection
        self.logger = logger
        self.statementTimeout = statementTimeout
    }

    /// A logger that drops everything (PostgresNIO logs at debug and trace; the CLI prints its own lines).
    public static let quietLogger = Logger(label: "openvision.jobs", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Connects to `url`, within `url.connectTimeout`.
    public static func connect(_ url: DatabaseURL, logger: Logger = JobStore.quietLogger) async throws -> JobStore {
        do {
            let configuration = url.configuration
            let connection = try await withDeadline(
                url.connectTimeout, "connecting", discard: { $0.closeWithoutWaiting() }
            ) {
                try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            }
            return JobStore(connection: connection, logger: logger, statementTimeout: url.statementTimeout)
        } catch {
            let mapped = JobsError(error)
            throw JobsError(mapped.code, "cannot connect to \(url): \(mapped.message)")
        }
    }

    /// Closes the connection without waiting for the server (errors are ignored: the connection may already be gone).
    public func close() async {
        _ = try? await withDeadline(.seconds(2), "closing") { [connection] in try await connection.close() }
    }

    /// Sets PostgreSQL's `synchronous_commit` for this connection: off, a commit returns before its WAL
    /// record is flushed (the server flushes within 3 × `wal_writer_delay`); a crash may lose the last
    /// commits but never corrupts or half-applies one.
    public func setSynchronousCommit(_ on: Bool) async throws {
        _ = try await run(PostgresQuery(unsafeSQL: "SET synchronous_commit TO \(on ? "on" : "off")"))
    }

    /// True once the connection is closed (by us, the server, or a network error).
    public var isClosed: Bool { connection.isClosed }

    /// Creates or upgrades the schema (`JobSchema.migrate`).
    @discardableResult
    public func migrate() async throws -> [Int] {
        try await JobSchema.migrate(connection, logger: logger, statementTimeout: statementTimeout)
    }

    /// The server's connection limits and use (`max_connections`, the connections reserved for roles with
    /// special rights, the client connections open now, this one included).
    public func connectionLimits() async throws -> ConnectionLimits {
        let row = try await rows(
            """
            SELECT current_setting('max_connections')::int4,
                   current_setting('superuser_reserved_connections')::int4 + coalesce(current_setting('reserved_connections', true), '0')::int4,
                   (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int4
            """
        ) { try $0.decode((Int32, Int32, Int32).self) }.first
        guard let (max, reserved, open) = row else {
            throw JobsError(.database, "the server did not report its connection limits")
        }
        return ConnectionLimits(maxConnections: Int(max), reserved: Int(reserved), open: Int(open))
    }

    private func run(_ query: PostgresQuery) async throws {
        _ = try await rows(query) { $0 }
    }

    /// Runs `query` and collects its rows within the statement deadline, then decodes them.
    private func rows<T>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws -> [T] {
        let connection = self.connection
        let logger = self.logger
        // A statement written to a closed channel would only end at the deadline.
        guard !connection.isClosed else { throw JobsError(.connection, "the connection is closed") }
        do {
            let rows = try await withDeadline(
                statementTimeout, "a statement", onTimeout: { connection.closeWithoutWaiting() }
            ) {
                var out: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: logger) { out.append(row) }
                return out
            }
            return try rows.map(decode)
        } catch {
            throw JobsError(error)
        }
    }

    // MARK: - Producers

    /// Enqueues one job per input (in order, in statements of at most 1000); returns their ids.
    public func submit(kind: JobKind, inputs: [String], options: String, maxAttempts: Int) async throws -> [Int64] {
        guard (1...Self.maximumAttempts).contains(maxAttempts) else {
            throw JobsError(.invalidInput, "--max-attempts must be 1...\(Self.maximumAttempts), got \(maxAttempts)")
        }
        var ids: [Int64] = []
        var start = 0
        while start < inputs.count {
            let chunk = Array(inputs[start..<min(start + 1000, inputs.count)])
            start += chunk.count
            ids += try await rows(
                """
                INSERT INTO openvision_jobs (kind, input, options, max_attempts)
                SELECT \(kind.rawValue), input, \(options)::jsonb, \(Int32(maxAttempts)) FROM unnest(\(chunk)::text[]) WITH ORDINALITY AS t(input, n)
                ORDER BY n RETURNING id
                """
            ) { try $0.decode(Int64.self) }
        }
        return ids
    }

    // MARK: - Workers

    /// Claims the oldest claimable job of `kind` for `worker` for `lease`: queued and due, or running
    /// with an expired lease (its worker died), with attempts left. `FOR UPDATE SKIP LOCKED`: workers
    /// claiming at once get different jobs and never wait on each other. Nil when there is none.
    public func claim(kind: JobKind, worker: String, lease: Duration) async throws -> ClaimedJob? {
        try await rows(
            """
            UPDATE openvision_jobs AS j
               SET state = 'running', locked_by = \(worker), locked_until = now() + make_interval(secs => \(lease.seconds)),
                   attempts = j.attempts + 1, started_at = now()
              FROM (SELECT id FROM openvision_jobs
                     WHERE kind = \(kind.rawValue) AND state IN ('queued', 'running')
                       AND (state = 'queued' AND run_after <= now() OR state = 'running' AND locked_until < now())
                       AND attempts < max_attempts
                     ORDER BY id LIMIT 1
                     FOR UPDATE SKIP LOCKED) AS c
             WHERE j.id = c.id
            RETURNING j.id, j.input, j.options::text, j.attempts, j.max_attempts
            """
        ) { row in
            let (id, input, options, attempt, maxAttempts) = try row.decode((Int64, String, String, Int32, Int32).self)
            return ClaimedJob(
                id: id, kind: kind, input: input, options: options, attempt: Int(attempt), maxAttempts: Int(maxAttempts)
            )
        }.first
    }

    /// Marks the job succeeded and stores `result` (JSON text) if `worker` still holds it; false when
    /// the lease was lost to another worker or the job is already finished (nothing is written then).
    public func complete(_ id: Int64, worker: String, result: String) async throws -> Bool {
        try await !rows(
            """
            WITH done AS (
                UPDATE openvision_jobs SET state = 'succeeded', finished_at = now(), locked_until = NULL, last_error = NULL
                 WHERE id = \(id) AND locked_by = \(worker) AND state = 'running'
                RETURNING id)
            INSERT INTO openvision_results (job_id, result, worker)
            SELECT id, \(result)::jsonb, \(worker) FROM done
            ON CONFLICT (job_id) DO NOTHING
            RETURNING job_id
            """
        ) { try $0.decode(Int64.self) }.isEmpty
    }

    /// Records `error` for the job `worker` holds: back to `queued` after `backoff` × 2^(attempt−1) (at most
    /// `maximumRetryDelay`) when attempts are left, else `failed`. Returns the new state, nil when the lease was lost.
    public func fail(_ id: Int64, worker: String, error: String, backoff: Duration) async throws -> JobState? {
        try await rows(
            """
            UPDATE openvision_jobs
               SET state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                   finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
                   run_after = now() + make_interval(secs => least(\(min(backoff.seconds, Self.maximumRetryDelay.seconds)) * power(2, least(greatest(attempts - 1, 0), 40)),
                                                                   \(Self.maximumRetryDelay.seconds))),
                   last_error = \(error), locked_by = NULL, locked_until = NULL
             WHERE id = \(id) AND locked_by = \(worker) AND state = 'running'
            RETURNING state
            """
        ) { JobState(rawValue: try $0.decode(String.self)) }.first ?? nil
    }

    /// Extends the leases `worker` holds on `ids` to now + `lease`; returns the ids it still holds.
    public func renew(_ ids: [Int64], worker: String, lease: Duration) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try await rows(
                """
                UPDATE openvision_jobs SET locked_until = now() + make_interval(secs => \(lease.seconds))
                 WHERE id = ANY(\(ids)::bigint[]) AND locked_by = \(worker) AND state = 'running'
                RETURNING id
                """
            ) { try $0.decode(Int64.self) })
    }

    /// Gives a held job back to the queue at once, not counting this attempt (a worker stopping cleanly).
    public func release(_ id: Int64, worker: String) async throws {
        _ = try await run(
            """
            UPDATE openvision_jobs SET state = 'queued', locked_by = NULL, locked_until = NULL, run_after = now(),
                   attempts = greatest(attempts - 1, 0)
             WHERE id = \(id) AND locked_by = \(worker) AND state = 'running'
            """)
    }

    /// Fails running jobs whose lease expired on their last attempt (their worker died each time: a
    /// poison input that crashes the process). Returns how many.
    @discardableResult
    public func failExpired() async throws -> Int {
        try await rows(
            """
            UPDATE openvision_jobs
               SET state = 'failed', finished_at = now(),
                   last_error = coalesce(last_error || '; ', '') || 'lease of attempt ' || attempts || ' expired (worker ' ||
                                coalesce(locked_by, '?') || ' stopped or lost the database)',
                   locked_by = NULL, locked_until = NULL
             WHERE state = 'running' AND locked_until < now() AND attempts >= max_attempts
            RETURNING id
            """
        ) { try $0.decode(Int64.self) }.count
    }

    /// Appends one analysed frame of a stream job `worker` holds.
    public func appendFrame(job: Int64, worker: String, frame: Int, result: String) async throws {
        _ = try await run(
            """
            INSERT INTO openvision_stream_frames (job_id, worker, frame, result) VALUES (\(job), \(worker), \(Int64(frame)), \(result)::jsonb)
            """)
    }

    // MARK: - Read-outs

    /// Jobs per state (every state present, 0 when none), of one kind or all.
    public func counts(kind: JobKind? = nil) async throws -> [JobState: Int] {
        var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for (state, count) in try await rows(
            """
            SELECT state, count(*) FROM openvision_jobs WHERE \(kind?.rawValue)::text IS NULL OR kind = \(kind?.rawValue)::text GROUP BY state
            """, { try $0.decode((String, Int64).self) })
        {
            if let state = JobState(rawValue: state) { counts[state] = Int(count) }
        }
        return counts
    }

    /// Finished jobs in `states` with id > `after`, by id, at most `limit`: one JSON object each.
    public func results(states: [JobState], kind: JobKind? = nil, after: Int64 = 0, limit: Int = 1000) async throws
        -> [JobResultLine]
    {
        try await rows(
            """
            SELECT j.id, jsonb_strip_nulls(jsonb_build_object(
                       'id', j.id, 'kind', j.kind, 'input', j.input, 'state', j.state, 'attempts', j.attempts,
                       'error', CASE WHEN j.state = 'failed' THEN j.last_error END,
                       'worker', r.worker, 'result', r.result))::text
              FROM openvision_jobs j LEFT JOIN openvision_results r ON r.job_id = j.id
             WHERE j.state = ANY(\(states.map(\.rawValue))::text[]) AND j.id > \(after)
               AND (\(kind?.rawValue)::text IS NULL OR j.kind = \(kind?.rawValue)::text)
             ORDER BY j.id LIMIT \(Int64(limit))
            """
        ) { row in
            let (id, json) = try row.decode((Int64, String).self)
            return JobResultLine(id: id, json: json)
        }
    }

    /// A stream job's frames with id > `after`, in order, at most `limit`: one JSON object each
    /// (`{"job":…,"frame":…,"worker":…,"result":{…}}`); `id` is the frame row's id, for paging.
    public func frames(job: Int64, after: Int64 = 0, limit: Int = 1000) async throws -> [JobResultLine] {
        try await rows(
            """
            SELECT id, jsonb_build_object('job', job_id, 'frame', frame, 'worker', worker, 'result', result)::text
              FROM openvision_stream_frames WHERE job_id = \(job) AND id > \(after) ORDER BY id LIMIT \(Int64(limit))
            """
        ) { row in
            let (id, json) = try row.decode((Int64, String).self)
            return JobResultLine(id: id, json: json)
        }
    }

    /// Puts failed jobs (all, or those in `ids`) back to `queued` with their attempts reset; returns how many.
    public func retryFailed(ids: [Int64]? = nil) async throws -> Int {
        try await rows(
            """
            UPDATE openvision_jobs SET state = 'queued', attempts = 0, run_after = now(), finished_at = NULL
             WHERE state = 'failed' AND (\(ids)::bigint[] IS NULL OR id = ANY(\(ids)::bigint[]))
            RETURNING id
            """
        ) { try $0.decode(Int64.self) }.count
    }
}

extension Duration {
    /// The duration in seconds, as PostgreSQL's `make_interval(secs => …)` takes it.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

extension PostgresConnection {
    /// Starts closing the connection and returns at once (PostgresNIO's future-returning `close()`).
    func closeWithoutWaiting() {
        let _: EventLoopFuture<Void> = close()
    }
}
