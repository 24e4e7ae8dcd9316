internal import CNative

/// One OpenCV single-object tracker (`ov_object_tracker.cpp`, see its "Algorithm / Decisions" header),
/// following one sequence of same-size frames. Owns its native tracker.
final class OpenCVObjectTracker: @unchecked Sendable {
    // @unchecked: the handle is used only by `update`, which its owner (SingleObjectTracking) calls under its lock.
    private let handle: OpaquePointer
    /// The frame size the tracker was started on.
    let width: Int, height: Int

    struct Step {
        /// Pixels, top-left origin (x, y, width, height).
        var box: (x: Double, y: Double, width: Double, height: Double)
        var found: Bool
        var confidence: Double
        /// The quadrilateral's corners (pixels) when the tracker follows one.
        var quad: [(x: Double, y: Double)]
    }

    /// Starts tracking the pixel `box` of `frame` with the tracker of `level`; `quad` (4 corners, pixels)
    /// are followed too when given.
    init(
        level: TrackingLevel, frame: VisionImage, box: (x: Double, y: Double, width: Double, height: Double),
        quad: [(x: Double, y: Double)]?
    ) throws(VisionError) {
        let kind: ov_object_tracker_kind = level == .accurate ? OV_TRACKER_CSRT : OV_TRACKER_KCF
        let rect = [box.x, box.y, box.width, box.height]
        var out: OpaquePointer?
        let status: ov_status
        if let quad {
            let corners = quad.flatMap { [$0.x, $0.y] }
            status = ov_object_tracker_create(kind, frame.handle, rect, corners, &out)
        } else {
            status = ov_object_tracker_create(kind, frame.handle, rect, nil, &out)
        }
        try NativeError.check(status, "object tracking")
        guard let out else { throw VisionError(.internalError, "object tracking: no tracker") }
        handle = out
        width = frame.width
        height = frame.height
    }

    deinit { ov_object_tracker_free(handle) }

    /// Tracks into `frame` (same size as the first, else `invalidArgument`).
    func update(_ frame: VisionImage) throws(VisionError) -> Step {
        var box = [Double](repeating: 0, count: 4)
        var quad = [Double](repeating: 0, count: 8)
        var found: Int32 = 0
        var confidence: Double = 0
        try NativeError.check(
            ov_object_tracker_update(handle, frame.handle, &box, &found, &confidence, &quad), "object tracking")
        return Step(
            box: (box[0], box[1], box[2], box[3]), found: found != 0, confidence: confidence,
            quad: (0..<4).map { (quad[2 * $0], quad[2 * $0 + 1]) })
    }
}
