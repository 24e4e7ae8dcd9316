import Foundation
import Synchronization
import Testing

@testable import OpenVisionAPI

/// The bounded queue on its own: admission without overflow, and waiters that give up their place.
@Suite struct WorkQueueTests {
    /// `workers + queueLength` overflowed (a trap on the first POST) with limits near Int.max.
    @Test func limitsNearIntMaxAdmit() {
        let queue = WorkQueue(workers: Int.max, queueLength: Int.max, metrics: ServerMetrics())
        #expect(queue.admit())
        #expect(queue.admit())
        let small = WorkQueue(workers: 1, queueLength: 1, metrics: ServerMetrics())
        #expect(small.admit() && small.admit())
        #expect(!small.admit())
    }

    /// A request cancelled while it waits for a worker (its deadline passed) leaves the line without running.
    @Test func cancelledWaitersLeaveTheLine() async throws {
        let metrics = ServerMetrics()
        let queue = WorkQueue(workers: 1, queueLength: 8, metrics: metrics)
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let holding = Mutex(false)
        let holder = Task {
            await queue.run {
                await withCheckedContinuation { c in
                    release.withLock { $0 = c }
                    holding.withLock { $0 = true }
                }
            }
        }
        while !holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        let ran = Mutex(false)
        let waiter = Task { await queue.run { ran.withLock { $0 = true } } }
        while metrics.exposition().count == 0
            || !String(decoding: metrics.exposition(), as: UTF8.self).contains("openvision_queue_depth 1")
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        waiter.cancel()
        #expect(await waiter.value == nil)
        #expect(String(decoding: metrics.exposition(), as: UTF8.self).contains("openvision_queue_depth 0"))
        release.withLock { $0 }?.resume()
        #expect(await holder.value != nil)
        #expect(!ran.withLock { $0 })
        // The slot is free again: the next request runs at once.
        #expect(await queue.run { 7 } == 7)
    }
}
