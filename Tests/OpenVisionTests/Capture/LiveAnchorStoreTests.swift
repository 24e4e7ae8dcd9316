import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVision

/// Issue 28, item 13: pinned labels are capped, and pinning or removing one never waits for the analysis
/// thread's tracking (the viewer calls them on its event loop: with 10,000 anchors each call took ~50 ms).
@Suite struct LiveAnchorStoreTests {
    /// dog.jpg's window at `x` (source pixels), 384 × 288 from y = 144, scaled to `width` × `height`: a textured
    /// frame the tracker finds corners on.
    static func frame(_ x: Double, width: Int = 640, height: Int = 480) throws -> VisionImage {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))  // 768 × 576
        return try photo.cropped(to: NormalizedRect(x: x / 768, y: 0.25, width: 0.5, height: 0.5)).resized(
            width: width, height: height)
    }

    /// `count` points spread over the frame's middle.
    static func points(_ count: Int) -> [CGPoint] {
        (0..<count).map { CGPoint(x: 0.15 + 0.7 * Double($0 % 8) / 7, y: 0.15 + 0.7 * Double($0 / 8 % 8) / 7) }
    }

    @Test func atMostSixtyFourLabelsArePinned() throws {
        let store = LiveAnchorStore(configuration: .init())
        _ = store.update(with: try Self.frame(100), topLabel: nil)
        #expect(LiveAnalyzer.maximumPinnedLabels == 64)
        var pinned: [Anchor] = []
        for point in Self.points(64) { pinned.append(try store.pin(at: point, label: "spot")) }
        #expect(pinned.map(\.id) == Array(1...64))
        #expect(throws: VisionError.self) { try store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "one more") }
        do {
            _ = try store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "one more")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("at most 64 labels"), "\(error.message)")
        }
        // Placed on the frame they were made against and tracked into the next (the camera moved 3 source px).
        let next = store.update(with: try Self.frame(103), topLabel: nil)
        #expect(next.anchors.map(\.id) == Array(1...64))
        #expect(next.anchors.filter { $0.state != .lost }.count >= 48, "\(next.anchors.map(\.state))")
        // A removal frees a place.
        #expect(store.remove(id: 10))
        #expect(!store.remove(id: 10))
        let again = try store.pin(at: CGPoint(x: 0.5, y: 0.4), label: "again")
        #expect(again.id == 65 && store.anchors.count == 64)
        let after = store.update(with: try Self.frame(106), topLabel: nil)
        #expect(after.anchors.map(\.id) == Array(1...9) + Array(11...65))
    }

    /// Pins and removals made while the analysis thread tracks a frame return before it is done: they queue
    /// their change, which the next frame applies. A removal made meanwhile keeps the anchor out of the frame's
    /// result; a pin made meanwhile is listed at once and in the next frame's result. (The tracking is held at
    /// its start by the store's test hook; before, the tracking ran under the lock pin and remove take.)
    @Test func pinsAndRemovalsDoNotWaitForTracking() throws {
        let armed = Atomic<Bool>(false)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let store = LiveAnchorStore(
            configuration: .init(),
            beforeTracking: {
                guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
                entered.signal()
                _ = proceed.wait(timeout: .now() + 120)
            })
        _ = store.update(with: try Self.frame(100), topLabel: nil)
        for point in Self.points(8) { _ = try store.pin(at: point, label: "spot") }
        #expect(store.update(with: try Self.frame(103), topLabel: nil).anchors.map(\.id) == Array(1...8))

        // The analysis thread starts frame 3 and stops just before tracking it.
        armed.store(true, ordering: .sequentiallyConsistent)
        let frame3 = try Self.frame(106)
        let frame4 = try Self.frame(109)
        let result = Mutex<[Anchor]?>(nil)
        let tracked = DispatchSemaphore(value: 0)
        Thread {
            let anchors = store.update(with: frame3, topLabel: nil).anchors
            result.withLock { $0 = anchors }
            tracked.signal()
        }.start()
        try #require(entered.wait(timeout: .now() + 120) == .success, "the update never reached its tracking")
        // Meanwhile, from another thread (the viewer's event loop): pin, remove, list; with a deadline.
        let made = Mutex<(pinned: Anchor?, removed: Bool, listed: [Int])>((nil, false, []))
        let done = DispatchSemaphore(value: 0)
        Thread {
            let pinned = try? store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "meanwhile")
            let removed = store.remove(id: 2)
            let listed = store.anchors.map(\.id)
            made.withLock { $0 = (pinned, removed, listed) }
            done.signal()
        }.start()
        let returned = done.wait(timeout: .now() + 30) == .success
        proceed.signal()
        #expect(returned, "pin and remove waited for the frame's tracking")
        try #require(tracked.wait(timeout: .now() + 120) == .success)
        let (pinned, removed, listed) = made.withLock { $0 }
        let pin = try #require(pinned)
        #expect(pin.id == 9 && pin.state == .normal && removed)
        #expect(listed == [1] + Array(3...9))
        // Frame 3's result: tracked without the pin made meanwhile, without the anchor removed meanwhile.
        #expect(result.withLock { $0 }?.map(\.id) == [1] + Array(3...8))
        #expect(store.anchors.map(\.id) == [1] + Array(3...9))
        // Frame 4 places the pin (on frame 3, the frame it was made against) and tracks it.
        #expect(store.update(with: frame4, topLabel: nil).anchors.map(\.id) == [1] + Array(3...9))
    }

    /// A client pinning and removing in a loop while a frame is tracked queues at most one change per anchor:
    /// a pin removed before it was placed is dropped from the queue, so the next frame places none of them.
    @Test func pinsRemovedBeforeTheyArePlacedCostNothing() throws {
        let store = LiveAnchorStore(configuration: .init())
        _ = store.update(with: try Self.frame(100), topLabel: nil)
        for _ in 0..<10_000 {
            let anchor = try store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "flicker")
            #expect(store.remove(id: anchor.id))
        }
        let kept = try store.pin(at: CGPoint(x: 0.4, y: 0.4), label: "kept")
        #expect(store.pendingChanges == 1)
        #expect(store.update(with: try Self.frame(103), topLabel: nil).anchors.map(\.id) == [kept.id])
    }

    /// A frame of another size drops every anchor (it cannot be followed from the previous one); pinning works
    /// again on the new frames.
    @Test func aNewFrameSizeDropsTheAnchors() throws {
        let store = LiveAnchorStore(configuration: .init())
        _ = store.update(with: try Self.frame(100), topLabel: nil)
        _ = try store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "a")
        #expect(store.update(with: try Self.frame(103), topLabel: nil).anchors.count == 1)
        #expect(store.update(with: try Self.frame(106, width: 320, height: 240), topLabel: nil).anchors.isEmpty)
        #expect(store.anchors.isEmpty)
        let pinned = try store.pin(at: CGPoint(x: 0.5, y: 0.5), label: "b")
        #expect(
            store.update(with: try Self.frame(109, width: 320, height: 240), topLabel: nil).anchors.map(\.id) == [
                pinned.id
            ])
    }
}
