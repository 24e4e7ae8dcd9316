import Foundation
import Synchronization

/// The pinned labels of one `LiveAnalyzer`: its `AnchorTracker`, the frame the tracker saw last and the latest
/// top classification. At most `maximumAnchors` labels.
///
/// `pin` and `remove` come from any thread (the viewer's event loop) and do no image work: they check the
/// request, give a pin its ID and queue the change, holding the lock for a few list operations. The analysis
/// thread calls `update` once per analysed frame, in frame order: it takes the queued changes and the tracker
/// under the lock, places the new pins on the frame they were made against and tracks every anchor into the new
/// frame with the lock released, then publishes the result. The tracker is created with the first pin.
final class LiveAnchorStore: Sendable {
    /// The most labels pinned at once: each costs tracking on every analysed frame (about 30 µs) and ~80 bytes
    /// of each frame's JSON Lines; a 65th pin is refused until one is removed.
    static let maximumAnchors = 64

    private enum Change {
        case add(id: Int, label: String, point: CGPoint)
        case remove(id: Int)
    }

    /// The tracker and the map from its IDs to the store's (they differ once a placement fails).
    private final class Tracking: @unchecked Sendable {
        let tracker: AnchorTracker
        var storeIDs: [Int: Int] = [:]

        init(_ tracker: AnchorTracker) { self.tracker = tracker }
    }

    private struct State {
        let configuration: AnchorTracker.Configuration
        /// Nil before the first pin, after the frame size changed, and while `update` works with it.
        var tracking: Tracking?
        /// The last analysed frame (the downscaled copy the requests read): new pins are placed on it.
        var lastImage: VisionImage?
        /// As listed: the last tracked anchors, less the ones removed since, plus the pins not placed yet.
        var anchors: [Anchor] = []
        /// Pins and removals not applied to the tracker yet, in order: at most one per anchor listed or
        /// tracked, so at most 2 × `maximumAnchors`.
        var pending: [Change] = []
        var nextID = 1
        var topLabel: ClassificationObservation?
    }

    private let state: Mutex<State>
    /// Called by `update` on the analysis thread just before it tracks, with the lock released (the tests hold
    /// the tracking there to pin and remove meanwhile).
    private let beforeTracking: (@Sendable () -> Void)?

    init(configuration: AnchorTracker.Configuration, beforeTracking: (@Sendable () -> Void)? = nil) {
        state = Mutex(State(configuration: configuration))
        self.beforeTracking = beforeTracking
    }

    /// Whether a frame has been analysed (pins need one).
    var hasFrame: Bool { state.withLock { $0.lastImage != nil } }

    var anchors: [Anchor] { state.withLock { $0.anchors } }

    var topLabel: ClassificationObservation? { state.withLock { $0.topLabel } }

    /// Changes queued for the next frame (for the tests).
    var pendingChanges: Int { state.withLock { $0.pending.count } }

    /// See `LiveAnalyzer.pinLabel(at:label:)`.
    func pin(at point: CGPoint, label: String?) throws(VisionError) -> Anchor {
        guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else {
            throw VisionError(
                .invalidArgument,
                "a pinned label's point must be finite and within 0...1 (normalised), got (\(point.x), \(point.y))")
        }
        if let label, label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw VisionError(.invalidArgument, "a pinned label must not be empty")
        }
        return try state.withLock { s throws(VisionError) -> Anchor in
            guard s.lastImage != nil else {
                throw VisionError(
                    .invalidArgument, "no frame has been analysed yet: labels are pinned on the latest analysed frame")
            }
            guard let text = label ?? s.topLabel?.identifier else {
                throw VisionError(
                    .invalidArgument,
                    "no label given and no classification to take it from (set LiveAnalyzer.Configuration.labelClassifier)"
                )
            }
            guard s.anchors.count < Self.maximumAnchors else {
                throw VisionError(
                    .invalidArgument, "at most \(Self.maximumAnchors) labels can be pinned at once: remove one first")
            }
            let anchor = Anchor(id: s.nextID, label: text, point: point, state: .normal)
            s.nextID += 1
            s.anchors.append(anchor)
            s.pending.append(.add(id: anchor.id, label: text, point: point))
            return anchor
        }
    }

    /// See `LiveAnalyzer.removeAnchor(id:)`.
    func remove(id: Int) -> Bool {
        state.withLock { s -> Bool in
            guard let index = s.anchors.firstIndex(where: { $0.id == id }) else { return false }
            s.anchors.remove(at: index)
            // A pin not placed yet is simply dropped: the queue never holds more than the listed anchors' changes.
            if let queued = s.pending.firstIndex(where: { if case .add(id, _, _) = $0 { true } else { false } }) {
                s.pending.remove(at: queued)
            } else {
                s.pending.append(.remove(id: id))
            }
            return true
        }
    }

    /// One analysed frame: remembers it (and the top label when one was computed on it), places the pins made
    /// since the last frame on that frame, and tracks the anchors into this one. Returns the tracked anchors for
    /// this frame's result (a pin made while it was tracked is in the next frame's). A frame of another size
    /// than the anchors' frames (a stream that changed resolution) cannot be followed from the previous one:
    /// the anchors are dropped then.
    func update(with image: VisionImage, topLabel: ClassificationObservation?) -> (
        anchors: [Anchor], topLabel: ClassificationObservation?
    ) {
        let (tracking, previous, changes, top) = state.withLock { s in
            let previous = s.lastImage
            s.lastImage = image
            if let topLabel { s.topLabel = topLabel }
            let changes = s.pending
            s.pending = []
            var tracking = s.tracking
            s.tracking = nil
            if tracking == nil, changes.contains(where: { if case .add = $0 { true } else { false } }) {
                tracking = Tracking(AnchorTracker(configuration: s.configuration))
            }
            return (tracking, previous, changes, s.topLabel)
        }
        guard let tracking else { return ([], top) }
        beforeTracking?()
        let tracked = Self.track(tracking, changes: changes, on: previous, into: image)
        return state.withLock { s in
            // Changes queued while this frame was tracked stay queued for the next one; a removal among them
            // already took its anchor out of the list and keeps it out of this result.
            let removed = Set(
                s.pending.compactMap { change -> Int? in if case .remove(let id) = change { id } else { nil } })
            let waiting = Set(
                s.pending.compactMap { change -> Int? in if case .add(let id, _, _) = change { id } else { nil } })
            guard let tracked else {
                // The frame size changed: every anchor is dropped, pins made meanwhile too (they were made on the old frames).
                s.anchors = []
                s.pending = []
                return ([], s.topLabel)
            }
            s.tracking = tracking
            let current = tracked.filter { !removed.contains($0.id) }
            s.anchors = current + s.anchors.filter { waiting.contains($0.id) }
            return (current, s.topLabel)
        }
    }

    /// Applies `changes` (pins placed on `previous`, the frame they were made against) and tracks the anchors
    /// into `image`; the anchors with the store's IDs, or nil when the frame size changed.
    private static func track(
        _ tracking: Tracking, changes: [Change], on previous: VisionImage?, into image: VisionImage
    ) -> [Anchor]? {
        let tracker = tracking.tracker
        for change in changes {
            switch change {
            case .add(let id, let label, let point):
                // A pin that cannot be placed (the frame size changed in between) is dropped.
                guard let previous, let placed = try? tracker.add(label: label, at: point, in: previous) else {
                    continue
                }
                tracking.storeIDs[placed.id] = id
            case .remove(let id):
                guard let trackerID = tracking.storeIDs.first(where: { $0.value == id })?.key else { continue }
                tracker.remove(id: trackerID)
                tracking.storeIDs[trackerID] = nil
            }
        }
        guard !tracker.anchors.isEmpty else { return [] }
        guard let moved = try? tracker.update(with: image) else { return nil }
        return moved.compactMap { anchor in
            tracking.storeIDs[anchor.id].map {
                Anchor(id: $0, label: anchor.label, point: anchor.point, state: anchor.state)
            }
        }
    }
}
