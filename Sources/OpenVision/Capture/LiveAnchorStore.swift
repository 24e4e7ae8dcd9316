import Foundation
import Synchronization

/// The pinned labels of one `LiveAnalyzer`: its `AnchorTracker`, the frame the tracker saw last and the latest
/// top classification, behind one lock. The analysis thread calls `update` once per analysed frame, in frame
/// order; `pin` and `remove` may come from any thread in between (they wait for a running update, a few
/// milliseconds). The tracker is created on the first pin.
final class LiveAnchorStore: Sendable {
    private struct State {
        let configuration: AnchorTracker.Configuration
        var tracker: AnchorTracker?
        /// The last analysed frame (the downscaled copy the requests read): new anchors are placed on it.
        var lastImage: VisionImage?
        var anchors: [Anchor] = []
        var topLabel: ClassificationObservation?
    }

    private let state: Mutex<State>

    init(configuration: AnchorTracker.Configuration) {
        state = Mutex(State(configuration: configuration))
    }

    /// Whether a frame has been analysed (pins need one).
    var hasFrame: Bool { state.withLock { $0.lastImage != nil } }

    var anchors: [Anchor] { state.withLock { $0.anchors } }

    var topLabel: ClassificationObservation? { state.withLock { $0.topLabel } }

    /// See `LiveAnalyzer.pinLabel(at:label:)`.
    func pin(at point: CGPoint, label: String?) throws(VisionError) -> Anchor {
        guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else {
            throw VisionError(.invalidArgument, "a pinned label's point must be finite and within 0...1 (normalised), got (\(point.x), \(point.y))")
        }
        if let label, label.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw VisionError(.invalidArgument, "a pinned label must not be empty")
        }
        return try state.withLock { s throws(VisionError) -> Anchor in
            guard let image = s.lastImage else {
                throw VisionError(.invalidArgument, "no frame has been analysed yet: labels are pinned on the latest analysed frame")
            }
            guard let text = label ?? s.topLabel?.identifier else {
                throw VisionError(.invalidArgument, "no label given and no classification to take it from (set LiveAnalyzer.Configuration.labelClassifier)")
            }
            let tracker = s.tracker ?? AnchorTracker(configuration: s.configuration)
            s.tracker = tracker
            let anchor = try tracker.add(label: text, at: point, in: image)
            s.anchors = tracker.anchors
            return anchor
        }
    }

    /// See `LiveAnalyzer.removeAnchor(id:)`.
    func remove(id: Int) -> Bool {
        state.withLock { s -> Bool in
            guard let tracker = s.tracker, tracker.remove(id: id) else { return false }
            s.anchors = tracker.anchors
            return true
        }
    }

    /// One analysed frame: remembers it (and the top label when one was computed on it) and tracks the anchors
    /// into it. A frame of another size than the anchors' frames (a stream that changed resolution) cannot be
    /// followed from the previous one: the anchors are dropped then.
    func update(with image: VisionImage, topLabel: ClassificationObservation?) -> (anchors: [Anchor], topLabel: ClassificationObservation?) {
        state.withLock { s in
            s.lastImage = image
            if let topLabel { s.topLabel = topLabel }
            if let tracker = s.tracker, !tracker.anchors.isEmpty {
                do {
                    s.anchors = try tracker.update(with: image)
                } catch {
                    s.tracker = nil
                    s.anchors = []
                }
            }
            return (s.anchors, s.topLabel)
        }
    }
}
