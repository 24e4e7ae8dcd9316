import Foundation
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

    /// Whether a frame has been performed with this request (its tracker has started).
    var hasPerformed = false
    /// The uuid of the observation the tracker follows (the input's, which its results keep); nil for requests
    /// whose state is not a tracker of one observation.
    var trackedUUID: UUID? { nil }
    /// The OpenVision tracker behind this request.
    var tracker: AnyObject? { nil }
    /// Continues `tracker` (one a request of the same kind returned `trackedUUID` from on an earlier frame) instead
    /// of starting a new one: Vision's "an observation returned from a tracker continues that tracker".
    func continueTracker(_ tracker: AnyObject) {}
}
