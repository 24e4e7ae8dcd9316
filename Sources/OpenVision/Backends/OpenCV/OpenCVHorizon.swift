internal import CNative

/// `DetectHorizonRequest`'s backend: Hough lines on Canny edges in `ov_horizon.cpp` (see its
/// "Algorithm / Decisions" header).
enum OpenCVHorizon {
    /// The horizon of `image`, or nil when it has no dominant near-horizontal line.
    static func detect(in image: VisionImage) throws(VisionError) -> HorizonObservation? {
        var found: Int32 = 0
        var angle = 0.0
        try NativeError.check(ov_detect_horizon(image.handle, &found, &angle), "horizon detection")
        guard found != 0 else { return nil }
        return HorizonObservation(radians: angle, regionAspectRatio: Double(image.width) / Double(max(image.height, 1)))
    }
}
