/// How a single-object tracking request trades accuracy for speed, as Vision's `TrackingLevel`.
/// Measured on the tests' moving textured patches and `scripts/bench sot` (see `TrackObjectRequest`).
public enum TrackingLevel: String, Sendable, Codable, CaseIterable {
    /// OpenCV's CSRT tracker (contrib `tracking`): discriminative correlation filters with channel and
    /// spatial reliability on HOG and colour-names features; follows scale changes.
    case accurate
    /// OpenCV's KCF tracker (contrib `tracking`): a kernelised correlation filter at a fixed scale, several
    /// times faster than CSRT.
    case fast
}
