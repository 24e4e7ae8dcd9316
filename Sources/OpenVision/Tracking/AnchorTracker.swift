internal import CNative
import Foundation

/// Follows pinned points (labels placed on the scene, seed 003's anchors) frame to frame in the image,
/// where ARKit would give a world anchor. Not thread-safe: one owner calls it in frame order.
///
/// Algorithm (`ov_anchor_tracker.cpp` has the details): per frame, one gray pyramid and one pyramidal
/// Lucas–Kanade pass (forward–backward checked) over every anchor's Shi–Tomasi corners and corners spread over
/// the whole frame; a similarity fitted with RANSAC on an anchor's own corners moves it; a homography of the
/// whole frame (the camera motion) moves it when its own corners are too few, and keeps predicting its spot
/// while it is out of view, where its latest template (normalised cross-correlation) re-acquires it when
/// the spot comes back. States: `.normal` (enough inliers, away from the edge), `.limited` (few inliers,
/// camera motion only, or near the edge), `.lost` (outside the frame or not found).
public final class AnchorTracker {
    /// The options this tracker runs with (clamped into range).
    public let configuration: Configuration
    private var handle: OpaquePointer?
    private var list: [Anchor] = []
    private var nextID = 1
    private var frameSize: (width: Int, height: Int)?

    /// A tracker with no anchors, running with `configuration` clamped into range.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration.clamped
    }

    deinit {
        if let handle { ov_anchor_tracker_free(handle) }
    }

    /// The anchors, in the order they were added, as of the latest frame.
    public var anchors: [Anchor] { list }

    /// Pins `label` at `point` (normalised, lower-left) of `image`, the frame being analysed (the one last
    /// passed to `update`, or a newer one: the other anchors are then tracked into it first). Throws
    /// `invalidArgument` for a NaN point, one outside 0...1, or an image of another size than the earlier frames.
    public func add(label: String, at point: CGPoint, in image: VisionImage) throws(VisionError) -> Anchor {
        guard point.x.isFinite, point.y.isFinite, (0...1).contains(point.x), (0...1).contains(point.y) else {
            throw VisionError(.invalidArgument, "anchor point (\(point.x), \(point.y)) must be finite and within 0...1")
        }
        try checkSize(image)
        let tracker = try nativeTracker()
        let pixel = Self.pixel(point, image)
        let id = nextID
        try NativeError.check(ov_anchor_tracker_add(tracker, image.handle, Int32(id), pixel.x, pixel.y), "anchor")
        nextID += 1
        frameSize = (image.width, image.height)
        // Tracking the other anchors into a new frame may have moved them: read their states back without a step.
        let anchor = Anchor(id: id, label: label, point: point, state: .normal)
        list.append(anchor)
        try refresh(image)
        return list.last ?? anchor
    }

    /// Removes an anchor; false when the id is unknown.
    @discardableResult
    public func remove(id: Int) -> Bool {
        guard let index = list.firstIndex(where: { $0.id == id }) else { return false }
        list.remove(at: index)
        if let handle {
            var removed: Int32 = 0
            _ = ov_anchor_tracker_remove(handle, Int32(id), &removed)
        }
        return true
    }

    /// Tracks every anchor into `image` (the next frame, same size as the earlier ones, else
    /// `invalidArgument` and nothing changes) and returns them all, in the order they were added.
    public func update(with image: VisionImage) throws(VisionError) -> [Anchor] {
        try checkSize(image)
        let tracker = try nativeTracker()
        try read(tracker, image, step: true)
        frameSize = (image.width, image.height)
        return list
    }

    private func checkSize(_ image: VisionImage) throws(VisionError) {
        if let frameSize, frameSize != (image.width, image.height) {
            throw VisionError(
                .invalidArgument,
                "anchor tracking: the frame size changed from \(frameSize.width)×\(frameSize.height) to "
                    + "\(image.width)×\(image.height); an AnchorTracker follows one sequence of same-size frames")
        }
    }

    private func nativeTracker() throws(VisionError) -> OpaquePointer {
        if let handle { return handle }
        let c = configuration
        var params = ov_anchor_params(
            window_radius: Int32(c.windowRadius), max_features: Int32(c.maximumFeatures),
            normal_inliers: Int32(c.normalInliers), min_inliers: Int32(c.minimumInliers),
            edge_margin: c.edgeMargin, global_features: Int32(c.globalFeatures),
            reacquire_ncc: c.reacquireCorrelation)
        var out: OpaquePointer?
        try NativeError.check(ov_anchor_tracker_create(&params, &out), "anchor tracker")
        guard let out else { throw VisionError(.internalError, "anchor tracker: no handle") }
        handle = out
        return out
    }

    /// Reads the anchors' states (no tracking step: `image` is the frame the native tracker saw last).
    private func refresh(_ image: VisionImage) throws(VisionError) {
        guard let handle else { return }
        try read(handle, image, step: false)
    }

    private func read(_ tracker: OpaquePointer, _ image: VisionImage, step: Bool) throws(VisionError) {
        var results = [ov_anchor_result](repeating: ov_anchor_result(), count: max(list.count, 1))
        var count: Int32 = 0
        // Adding on the frame the tracker saw last is no step; update always is one.
        let status =
            step
            ? ov_anchor_tracker_update(tracker, image.handle, &results, Int32(results.count), &count)
            : ov_anchor_tracker_peek(tracker, &results, Int32(results.count), &count)
        try NativeError.check(status, "anchor tracking")
        var byID: [Int: ov_anchor_result] = [:]
        for r in results.prefix(Int(count)) { byID[Int(r.id)] = r }
        let width = Double(image.width)
        let height = Double(image.height)
        for i in list.indices {
            guard let r = byID[list[i].id] else { continue }
            list[i].point = CGPoint(x: r.x / width, y: 1 - r.y / height)
            list[i].state =
                switch r.state {
                case Int32(OV_ANCHOR_NORMAL.rawValue): .normal
                case Int32(OV_ANCHOR_LIMITED.rawValue): .limited
                default: .lost
                }
        }
    }

    /// The pixel (top-left origin, as `PixelToNormalized`'s inverse) of a normalised point, kept on the frame.
    private static func pixel(_ point: CGPoint, _ image: VisionImage) -> (x: Double, y: Double) {
        let x = Double(point.x) * Double(image.width)
        let y = (1 - Double(point.y)) * Double(image.height)
        return (min(max(x, 0), Double(image.width - 1)), min(max(y, 0), Double(image.height - 1)))
    }
}
