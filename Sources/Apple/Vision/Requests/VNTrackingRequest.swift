import OpenVision

/// How hard a tracker works (Vision's `VNRequestTrackingLevel`): `.accurate` is OpenCV's CSRT, `.fast` KCF.
public enum VNRequestTrackingLevel: UInt, Sendable {
    /// OpenCV's CSRT tracker: slower, more accurate.
    case accurate = 0
    /// OpenCV's KCF tracker: faster.
    case fast = 1

    var native: TrackingLevel { self == .accurate ? .accurate : .fast }
}

/// Vision's abstract tracking request: `inputObservation` (updated to the latest result after each frame, as
/// Vision does), `trackingLevel`, `isLastFrame` (releases the tracker). Perform it on a `VNSequenceRequestHandler`.
open class VNTrackingRequest: VNStatefulRequest {
    /// Which tracker runs. Default `.accurate`.
    public var trackingLevel: VNRequestTrackingLevel = .accurate {
        didSet { applyOptions() }
    }
    /// Set on the last frame: the tracker is released after it.
    public var isLastFrame = false {
        didSet { applyOptions() }
    }

    func applyOptions() {}
}
