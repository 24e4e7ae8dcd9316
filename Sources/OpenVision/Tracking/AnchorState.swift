/// ARKit-like tracking state of a pinned anchor (`ARCamera.TrackingState`'s normal / limited / notAvailable).
public enum AnchorState: String, Sendable, Codable {
    /// Tracked from enough features around it, away from the frame's edge.
    case normal
    /// Tracked, but from few features (or only from the camera motion) or close to the frame's edge:
    /// the position may be less exact.
    case limited
    /// Not tracked: its point left the frame, is hidden, or the tracking failed. `Anchor.point` is then its
    /// last tracked position; the tracker looks for it again on every frame.
    case lost
}
