/// What a job analyses: one image, or a live source held under a lease until it ends.
public enum JobKind: String, Sendable, CaseIterable {
    /// `image`: one image file; `stream`: a camera, stream URL, video file or image folder.
    case image, stream
}

/// A job's state; docs/jobs.md has the transitions.
///
/// `queued` → `running` (claimed: `locked_by` set, `locked_until` = now + lease, `attempts` + 1) →
/// `succeeded` (its result written) or back to `queued` (an error with attempts left, after a
/// backoff; or its lease expired) or `failed` (an error on the last attempt, or the last attempt's
/// lease expired). `openvision jobs retry` puts failed jobs back to `queued`.
public enum JobState: String, Sendable, CaseIterable {
    /// The states, as stored in the `state` column.
    case queued, running, succeeded, failed
}

/// A job a worker holds under a lease.
public struct ClaimedJob: Sendable, Equatable {
    /// The job's ID in the database.
    public var id: Int64
    /// Whether it analyses one image or a stream.
    public var kind: JobKind
    /// A path (image jobs) or a source (stream jobs: a camera, stream URL, video file or image folder).
    public var input: String
    /// The job's options as JSON text (the CLI's: requests and analysis flags).
    public var options: String
    /// This attempt's number, from 1.
    public var attempt: Int
    /// Attempts allowed in all; the last one's failure fails the job.
    public var maxAttempts: Int
}

/// A finished job as `openvision jobs results` prints it: one JSON object (text) per job.
public struct JobResultLine: Sendable {
    /// The job's ID in the database.
    public var id: Int64
    /// `{"attempts":…,"error":…,"id":…,"input":…,"result":{…},"state":…,"worker":…}`; `result` for
    /// a succeeded job, `error` for a failed one.
    public var json: String
}

/// A server's connection limits as a worker reads them at start (`JobStore.connectionLimits()`).
public struct ConnectionLimits: Sendable, Equatable {
    /// `max_connections`.
    public var maxConnections: Int
    /// Connections only roles with special rights may take (`superuser_reserved_connections`, plus
    /// `reserved_connections` from PostgreSQL 16).
    public var reserved: Int
    /// Client connections open when read, the reading one included.
    public var open: Int

    /// The connections any role may open in all.
    public var available: Int { max(0, maxConnections - reserved) }
}
