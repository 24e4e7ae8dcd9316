/// Vision's face landmark constellations (Apple's raw values).
public enum VNRequestFaceLandmarksConstellation: UInt, Sendable {
    /// No constellation chosen: revision 3 gives 76 points.
    case constellationNotDefined = 0
    /// 65 points.
    case constellation65Points = 1
    /// 76 points (revision 3's default).
    case constellation76Points = 2
}
