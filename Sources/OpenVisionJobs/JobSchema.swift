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
        ],
    ]

    /// The schema version this build writes and reads.
    public static var currentVersion: Int { migrations.count }

    /// Creates or upgrades the schema; returns the versions applied now (empty when up to date).
    @discardableResult
    public static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        do {
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS openvision_schema_version (
                        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: logger)
                var current = 0
                for try await version in try await connection.query(
                    "SELECT coalesce(max(version), 0)::int4 FROM openvision_schema_version", logger: logger).decode(Int32.self) {
                    current = Int(version)
                }
                guard current <= currentVersion else {
                    throw JobsError(.schemaTooNew, "the database's job schema is version \(current); this build knows up to \(currentVersion): upgrade openvision")
                }
                var applied: [Int] = []
                for version in (current + 1)..<(currentVersion + 1) {
                    for statement in migrations[version - 1] {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO openvision_schema_version (version) VALUES (\(Int32(version)))", logger: logger)
                    applied.append(version)
                }
                try await connection.query("COMMIT", logger: logger)
                return applied
            } catch {
                try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch {
            throw JobsError(error)
        }
    }
}
