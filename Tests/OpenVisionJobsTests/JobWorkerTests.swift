import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionJobs

/// `JobWorker` in-process with a runner of the test's own: slots, retries to failure, drain, graceful stop.
@Suite(
    .enabled(
        if: RequiredTools.runs(PostgresCluster.available),
        "PostgreSQL binaries not found under /usr/lib/postgresql: run ./scripts/setup"))
struct JobWorkerTests {
    /// Succeeds with {"input": …}, throws for inputs starting with "poison", waits `delay` first.
    final class Runner: JobRunner {
        let delay: Duration
        let started = Mutex<[Int64]>([])

        init(delay: Duration = .zero) { self.delay = delay }

        struct Poison: Error, CustomStringConvertible { var description: String }

        func runImage(_ job: ClaimedJob) async throws -> String {
            started.withLock { $0.append(job.id) }
            if delay > .zero { try? await Task.sleep(for: delay) }
            if job.input.hasPrefix("poison") { throw Poison(description: "cannot decode \(job.input) [invalidImage]") }
            return #"{"input":"\#(job.input)"}"#
        }

        func runStream(_ job: ClaimedJob, frames: StreamFrames) async throws -> String {
            throw Poison(description: "no streams here")
        }
    }

    @Test func slotsDrainTheQueueAndPoisonFailsAfterItsAttempts() async throws {
        let (store, url) = try await JobStoreTests.freshStore()
        defer { Task { await store.close() } }
        let inputs = (0..<60).map { $0 % 12 == 5 ? "poison-\($0)" : "img-\($0)" }
        _ = try await store.submit(kind: .image, inputs: inputs, options: "{}", maxAttempts: 3)
        var configuration = JobWorker.Configuration(database: try DatabaseURL(url), id: "in-process")
        configuration.concurrency = 3
        configuration.streams = 0
        configuration.lease = .seconds(5)
        configuration.poll = .milliseconds(50)
        configuration.retryBackoff = .zero
        configuration.exitWhenDrained = true
        let worker = JobWorker(configuration: configuration, runner: Runner())
        try await worker.run()
        #expect(try await store.counts() == [.queued: 0, .running: 0, .succeeded: 55, .failed: 5])
        let stats = worker.stats
        #expect(stats.succeeded == 55 && stats.failed == 5 && stats.retried == 10 && stats.lostLeases == 0)
        let failed = try await store.results(states: [.failed])
        #expect(failed.count == 5)
        #expect(failed.allSatisfy { $0.json.contains("[invalidImage]") && $0.json.contains(#""attempts": 3"#) })
        let succeeded = try await store.results(states: [.succeeded])
        #expect(succeeded.allSatisfy { $0.json.contains(#""worker": "in-process""#) })
    }

    @Test func stopFinishesJobsInFlightAndClaimsNoMore() async throws {
        let (store, url) = try await JobStoreTests.freshStore()
        defer { Task { await store.close() } }
        _ = try await store.submit(kind: .image, inputs: (0..<10).map { "slow-\($0)" }, options: "{}", maxAttempts: 3)
        var configuration = JobWorker.Configuration(database: try DatabaseURL(url), id: "stopping")
        configuration.concurrency = 2
        configuration.streams = 0
        configuration.poll = .milliseconds(50)
        let runner = Runner(delay: .seconds(1))
        let worker = JobWorker(configuration: configuration, runner: runner)
        let run = Task { try await worker.run() }
        let deadline = ContinuousClock.now + .seconds(120)
        while runner.started.withLock({ $0.count }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        worker.stop()
        try await run.value
        let started = runner.started.withLock { $0 }
        let counts = try await store.counts()
        // What had started finished and was written; nothing else was claimed or left running.
        #expect(counts[.succeeded] == started.count && counts[.running] == 0 && counts[.queued] == 10 - started.count)
        #expect(started.count >= 2 && started.count < 10)
    }
}
