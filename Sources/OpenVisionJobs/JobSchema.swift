import Logging
import PostgresNIO

/// The queue's tables, created and migrated by the tool itself (docs/jobs.md describes them).
///
/// Migrations are applied in order, each version once, inside one transaction that first takes a
/// transaction-scoped advisory lock, so workers starting together do not race: the first applies
/// what is missing, the others then find `openvision_schema_version` up to date. Running it again is
/// a no-op. A database migrated by a newer build (a version above `currentVersion`) is refused.
public enum JobSchema {
    /// The advisory lock key: "OVJOBS" in ASCII.
    static let lockKey: Int64 = 0x4F56_4A4F_4253

    /// Each migration's statements (one statement per string: the extended protocol runs one at a time).
    static let migrations: [[String]] = [
        // 1: jobs, results, stream frames.
        [
            """
            CREATE TABLE openvision_jobs (
                id           bigserial PRIMARY KEY,
                kind         text NOT NULL DEFAULT 'image' CHECK (kind IN ('image', 'stream')),
                input        text NOT NULL,
                options      jsonb NOT NULL DEFAULT '{}',
                state        text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
                attempts     integer NOT NULL DEFAULT 0,
                max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts > 0),
                run_after    timestamptz NOT NULL DEFAULT now(),
                locked_by    text,
                locked_until timestamptz,
                last_error   text,
                created_at   timestamptz NOT NULL DEFAULT now(),
                started_at   timestamptz,
                finished_at  timestamptz
            )
            """,
            // The claim scans only unfinished jobs, oldest first.
            "CREATE INDEX openvision_jobs_pending ON openvision_jobs (kind, id) WHERE state IN ('queued', 'running')",
            """
            CREATE TABLE openvision_results (
                job_id     bigint PRIMARY KEY REFERENCES openvision_jobs (id) ON DELETE CASCADE,
                result     jsonb NOT NULL,
                worker     text NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE openvision_stream_frames (
                id         bigserial PRIMARY KEY,
                job_id     bigint NOT NULL REFERENCES openvision_jobs (id) ON DELETE CASCADE,
                worker     text NOT NULL,
                frame      bigint NOT NULL,
                result     jsonb NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX openvision_stream_frames_job ON openvision_stream_frames (job_id, id)",
        ]
    ]

    /// The schema version this build writes and reads.
    public static var currentVersion: Int { migrations.count }

    /// Creates or upgrades the schema; returns the versions applied now (empty when up to date). Each
    /// statement has `statementTimeout` (see `JobStore`): past it the connection is closed and `.connection` thrown.
    @discardableResult
    public static func migrate(
        _ connection: PostgresConnection, logger: Logger, statementTimeout: Duration = .seconds(30)
    ) async throws -> [Int] {
        @discardableResult
        func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
            guard !connection.isClosed else { throw JobsError(.connection, "the connection is closed") }
            return try await withDeadline(
                statementTimeout, "a migration statement", onTimeout: { connection.closeWithoutWaiting() }
            ) {
                var out: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: logger) { out.append(row) }
                return out
            }
        }
        do {
            try await run("BEGIN")
            do {
                try await run("SELECT pg_advisory_xact_lock(\(lockKey))")
                try await run(
                    """
                    CREATE TABLE IF NOT EXISTS openvision_schema_version (
                        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                var current = 0
                for row in try await run("SELECT coalesce(max(version), 0)::int4 FROM openvision_schema_version") {
                    current = Int(try row.decode(Int32.self))
                }
                guard current <= currentVersion else {
                    throw JobsError(
                        .schemaTooNew,
                        "the database's job schema is version \(current); this build knows up to \(currentVersion): upgrade openvision"
                    )
                }
                var applied: [Int] = []
                for version in (current + 1)..<(currentVersion + 1) {
                    for statement in migrations[version - 1] {
                        try await run(PostgresQuery(unsafeSQL: statement))
                    }
                    try await run("INSERT INTO openvision_schema_version (version) VALUES (\(Int32(version)))")
                    applied.append(version)
                }
                try await run("COMMIT")
                return applied
            } catch {
                if !connection.isClosed { _ = try? await run("ROLLBACK") }
                throw error
            }
        } catch {
            throw JobsError(error)
        }
    }
}
