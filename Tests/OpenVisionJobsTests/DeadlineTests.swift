import Foundation
import Synchronization
import Testing

@testable import OpenVisionJobs

/// The pieces that keep a worker from hanging or flooding its log: `withDeadline`, `StopSignal`, `LogLimiter`.
@Suite struct DeadlineTests {
    /// A call that never returns (as PostgresNIO's statement on a channel that closed under it): a continuation
    /// nobody resumes, which also ignores cancellation.
    static func never() async throws -> Int {
        try await withUnsafeThrowingContinuation { (_: UnsafeContinuation<Int, any Error>) in }
    }

    @Test func aStuckCallEndsAtTheDeadlineWithoutWaitingForIt() async throws {
        let closed = Atomic<Int>(0)
        await #expect {
            _ = try await withDeadline(
                .milliseconds(200), "a statement", onTimeout: { closed.add(1, ordering: .sequentiallyConsistent) }
            ) {
                try await Self.never()
            }
        } throws: { error in
            guard let error = error as? JobsError else { return false }
            return error.code == .connection
                && error.message == "a statement: no answer within 0.2 s; the connection was closed"
        }
        #expect(closed.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test func aTimelyAnswerOrErrorPassesThrough() async throws {
        let value = try await withDeadline(.seconds(60), "x", onTimeout: { Issue.record("timed out") }) { 42 }
        #expect(value == 42)
        await #expect {
            _ = try await withDeadline(.seconds(60), "x") { () async throws -> Int in
                throw JobsError(.database, "rejected")
            }
        } throws: {
            ($0 as? JobsError)?.message == "rejected"
        }
    }

    /// A value that arrives after the deadline (a connection opened too late) is handed to `discard`, not lost.
    @Test func aLateValueIsDiscarded() async throws {
        let discarded = Mutex<[Int]>([])
        let release = StopSignal()
        await #expect(throws: JobsError.self) {
            _ = try await withDeadline(
                .milliseconds(100), "connecting", discard: { value in discarded.withLock { $0.append(value) } }
            ) {
                await release.wait()
                return 7
            }
        }
        release.set()
        var waited = 0
        while discarded.withLock({ $0 }).isEmpty, waited < 600 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(discarded.withLock { $0 } == [7])
    }

    /// `set()` ends sleeps in progress at once and later ones return at once; a sleep ends by itself otherwise.
    @Test func aStopSignalWakesSleepers() async throws {
        let signal = StopSignal()
        #expect(await signal.sleep(for: .milliseconds(10)) == false)
        let sleeper = Task { await signal.sleep(for: .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(50))
        signal.set()
        #expect(await sleeper.value == true)
        #expect(await signal.sleep(for: .seconds(3600)) == true)
        let waiter = Task { await StopSignal().wait() }
        waiter.cancel()
        await waiter.value  // a cancelled wait returns
    }

    /// One line per kind per interval; the next one says how many were left out; `flush` reports the rest.
    @Test func aLogLimiterPassesOneLinePerKindPerInterval() {
        let clock = Mutex(ContinuousClock.now)
        let lines = Mutex<[String]>([])
        let limiter = LogLimiter(
            interval: .seconds(10), now: { clock.withLock { $0 } }, sink: { line in lines.withLock { $0.append(line) } }
        )
        func advance(_ seconds: Int) { clock.withLock { $0 += .seconds(seconds) } }
        for slot in 0..<100 { limiter("database unavailable", "slot \(slot): database unavailable") }
        limiter("database back", "slot 7: database back")
        advance(5)
        limiter("database unavailable", "slot 3: database unavailable")
        advance(6)
        limiter("database unavailable", "slot 4: database unavailable")
        limiter("claim failed", "slot 1: claim failed")
        limiter("claim failed", "slot 2: claim failed")
        limiter.flush()
        limiter.flush()
        #expect(
            lines.withLock { $0 } == [
                "slot 0: database unavailable",
                "slot 7: database back",
                "slot 4: database unavailable (100 similar lines left out before this one)",
                "slot 1: claim failed",
                "1 more 'claim failed' line left out",
            ])
    }
}
