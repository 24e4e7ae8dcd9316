internal import CNative

/// Moving blobs against a running median background (`ov_trajectories.cpp`, see its "Algorithm /
/// Decisions" header). Owns its native detector; one detector follows one sequence, one frame at a time.
final class OpenCVMotionDetector: @unchecked Sendable {
    // @unchecked: the handle is used only by `blobs(in:…)`, which its owner (TrajectoryTracker) calls
    // under its lock.
    private let handle: OpaquePointer

    struct Blob {
        /// Centroid in frame pixels (top-left origin).
        var x: Double, y: Double
        /// Radius of the disc of the blob's area, pixels.
        var radius: Double
    }

    /// At most this many blobs per frame (largest first).
    static let capacity = 64

    init() throws(VisionError) {
        var out: OpaquePointer?
        try NativeError.check(ov_motion_detector_create(&out), "motion detector")
        handle = out!
    }

    deinit { ov_motion_detector_free(handle) }

    /// Adds `frame` to the background and returns its moving blobs with a radius in `radii` (pixels).
    func blobs(in frame: VisionImage, radii: ClosedRange<Double>) throws(VisionError) -> [Blob] {
        var buffer = [ov_motion_blob](repeating: ov_motion_blob(), count: Self.capacity)
        var count: Int32 = 0
        try NativeError.check(
            ov_motion_detector_add(
                handle, frame.handle, Float(radii.lowerBound), Float(radii.upperBound), &buffer,
                Int32(Self.capacity), &count), "trajectory detection")
        return buffer.prefix(Int(count)).map { Blob(x: Double($0.x), y: Double($0.y), radius: Double($0.radius)) }
    }
}
