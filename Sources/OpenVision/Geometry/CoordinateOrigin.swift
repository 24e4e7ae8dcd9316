/// Where the origin of a pixel coordinate system sits.
public enum CoordinateOrigin: String, Sendable, Hashable, Codable {
    /// Origin at the lower-left corner, y up: Vision's and Core Graphics' convention.
    case lowerLeft
    /// Origin at the upper-left corner, y down: the convention of image files, OpenCV and browsers.
    case upperLeft
}
