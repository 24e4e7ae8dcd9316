/// What a worker does with the jobs it claims (the CLI's runner analyses images and live sources as
/// `openvision analyze` and `openvision live` do).
public protocol JobRunner: Sendable {
    /// Analyses one image job; returns its result as JSON text. A thrown error is recorded as the
    /// job's `last_error` (its description) and the job retried while attempts are left.
    func runImage(_ job: ClaimedJob) async throws -> String

    /// Analyses a stream job until its source ends, handing each analysed frame to `frames`; returns a
    /// closing summary as JSON text. Cancelled when the worker loses the lease or stops: it then
    /// returns or throws promptly, and the worker writes nothing for this attempt.
    func runStream(_ job: ClaimedJob, frames: StreamFrames) async throws -> String
}
