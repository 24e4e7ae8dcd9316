/// One captured frame, upright.
public struct Frame: Sendable {
    /// 0, 1, 2, … in capture order (counting frames the analyzer later dropped).
    public var index: Int
    /// When it was captured, on the process's continuous clock.
    public var captureTime: ContinuousClock.Instant
    /// The source's own timestamp in seconds (position in a file, camera buffer time), if any.
    public var sourceTimestamp: Double?
    /// The frame's pixels, turned upright (see `CaptureOptions.orientation`).
    public var image: VisionImage
    /// The source's last frame, known for files and image folders (the capture reads one frame ahead of them);
    /// false for live sources, whose end is not known in advance.
    var isLastOfSource = false
}
