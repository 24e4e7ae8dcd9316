import ArgumentParser
import Foundation
import OpenVisionJobs

/// `openvision worker`: claims jobs from the PostgreSQL queue and runs them until stopped.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract:
            "Claim and run queued jobs (`openvision jobs submit`) from PostgreSQL; run as many as you like, on any machine.",
        discussion: """
            Each job is claimed under a lease the worker renews while it runs; a worker that dies (kill -9, power \
            loss) loses nothing: its jobs go back to the queue when the lease expires. A job that fails is retried \
            (--retry-backoff, doubling) until its --max-attempts, then failed with its error. The database may \
            restart: the worker reconnects with a backoff and carries on (a statement without an answer within the URL's \
            statement_timeout, 30 s by default, closes its connection and is retried). SIGTERM or Ctrl-C: no more claims, \
            image jobs in flight finish, stream jobs are released, within --stop-timeout; a worker with no job in hand exits \
            at once, whatever its connection is doing; exit status 143 / 130. A second signal exits at once.
            """
    )

    @OptionGroup var database: DatabaseOption
    @Option(help: "Image jobs analysed at once (0...\(JobWorker.maximumSlots); each is a database connection).")
    var concurrency: Int = 1
    @Option(help: "Live stream jobs owned at once (0: images only; each is two database connections).") var streams:
        Int = 1
    @Option(help: "Lease in seconds (1...86400): how long a claimed job stays with a worker that stopped renewing it.")
    var lease: Double = 30
    @Option(help: "Seconds between claims while the queue is empty (0.001...3600).") var poll: Double = 0.5
    @Option(help: "Seconds before a failed job's first retry (0...86400; doubling with each attempt, at most a day).")
    var retryBackoff: Double = 1
    @Option(
        help:
            "Seconds SIGTERM waits for jobs in flight and their writes (0...3600); past it the worker exits anyway and their leases lapse."
    )
    var stopTimeout: Double = 20
    @Option(help: "Worker id in locked_by and results (default: host:pid:random).") var id: String?
    @Flag(help: "Exit (status 0) once no image or stream job is queued or running.") var exitWhenDrained = false
    @Flag(help: "Print only errors.") var quiet = false
    @Flag(
        help:
            "Make every claim and result wait for PostgreSQL's WAL flush (synchronous_commit on). Off by default: a commit lost in a database crash is re-done, since the job's lease expires and it runs again (docs/jobs.md)."
    )
    var synchronousCommit = false
    @Flag(
        help:
            "Benchmarking: complete every image job with an empty result ({}) without analysing it; the queue's own cost."
    )
    var noop = false

    func validate() throws {
        for (name, value) in [("--concurrency", concurrency), ("--streams", streams)]
        where !(0...JobWorker.maximumSlots).contains(value) {
            throw ValidationError(
                "\(name) must be 0...\(JobWorker.maximumSlots) (each slot holds a database connection), got \(value)")
        }
        guard concurrency + streams > 0 else {
            throw ValidationError("--concurrency plus --streams must be at least 1")
        }
        try Self.seconds(lease, "--lease", 1, 86400)
        try Self.seconds(poll, "--poll", 0.001, 3600)
        try Self.seconds(retryBackoff, "--retry-backoff", 0, 86400)
        try Self.seconds(stopTimeout, "--stop-timeout", 0, 3600)
    }

    /// Refuses a number of seconds that is not finite or outside `low...high`.
    static func seconds(_ value: Double, _ name: String, _ low: Double, _ high: Double) throws {
        guard value.isFinite, value >= low, value <= high else {
            throw ValidationError(
                "\(name) must be \(String(format: "%g", low))...\(String(format: "%g", high)) seconds, got \(value)")
        }
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    func run() async throws {
        let interruption = Interruption()
        var configuration = JobWorker.Configuration(database: try database.url())
        if let id { configuration.id = id }
        configuration.concurrency = concurrency
        configuration.streams = noop ? 0 : streams
        configuration.lease = Self.duration(lease)
        configuration.poll = Self.duration(poll)
        configuration.retryBackoff = Self.duration(retryBackoff)
        configuration.stopTimeout = Self.duration(stopTimeout)
        configuration.exitWhenDrained = exitWhenDrained
        configuration.synchronousCommit = synchronousCommit
        let quiet = self.quiet
        let worker = JobWorker(
            configuration: configuration, runner: noop ? NoopRunner() as any JobRunner : AnalysisJobRunner()
        ) { line in
            if !quiet { FileHandle.standardError.write(Data("openvision worker: \(line)\n".utf8)) }
        }
        // The first SIGTERM/SIGINT cancels this task, which stops the worker gracefully.
        let stopper = Task {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            worker.stop()
        }
        interruption.cancels(stopper)
        do {
            try await worker.run()
        } catch {
            stopper.cancel()
            FileHandle.standardError.write(Data("openvision: error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        stopper.cancel()
        let stats = worker.stats
        if !quiet {
            FileHandle.standardError.write(
                Data(
                    "openvision worker: \(configuration.id) done: \(stats.succeeded) succeeded, \(stats.failed) failed, \(stats.retried) retried, \(stats.lostLeases) lost leases\n"
                        .utf8))
        }
        if worker.stoppedWithWorkInFlight || worker.stoppedWithConnectionsOpen {
            // Jobs abandoned at --stop-timeout may be inside a native analysis, and an idle worker's claims or
            // connections that did not answer are still in NIO's hands: leave without running exit's handlers and
            // static destructors under them.
            _exit(interruption.exitStatus ?? 1)
        }
        if let status = interruption.exitStatus { throw ExitCode(status) }
    }

    /// `--noop`: the queue without the work (streams are refused: they would fail after their attempts).
    struct NoopRunner: JobRunner {
        func runImage(_ job: ClaimedJob) async throws -> String { "{}" }
        func runStream(_ job: ClaimedJob, frames: StreamFrames) async throws -> String {
            throw AnalysisJobRunner.Failure(description: "worker --noop does not run streams")
        }
    }
}
