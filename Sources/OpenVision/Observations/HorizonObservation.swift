import Foundation

/// The horizon found by `DetectHorizonRequest`, as Vision's `HorizonObservation`: its tilt and the
/// rotation that levels it.
public struct HorizonObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The horizon's angle, counter-clockwise as seen (a horizon rising to the right is positive),
    /// within -45°...45°.
    public var angle: Measurement<UnitAngle>
    /// Width / height of the analysed region (for drawing the line); 1 when unknown.
    var regionAspectRatio: Double = 1

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(angle: Measurement<UnitAngle>, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.angle = angle
    }

    init(radians: Double, regionAspectRatio: Double) {
        self.init(angle: Measurement(value: radians, unit: .radians))
        self.regionAspectRatio = regionAspectRatio
    }

    /// The angle in radians.
    public var radians: Double { angle.converted(to: .radians).value }

    /// The rotation by -`angle` about the origin that levels the horizon (lower-left coordinates, y up).
    public var transform: AffineTransform { AffineTransform(rotationByRadians: -radians) }

    /// The rotation by -`angle` about the centre of a `width` × `height` image (lower-left pixel
    /// coordinates, y up): maps the image so that its horizon is level and its centre stays put.
    public func transform(width: Int, height: Int) -> AffineTransform {
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        var t = AffineTransform(translationByX: -cx, byY: -cy)
        t.append(AffineTransform(rotationByRadians: -radians))
        t.append(AffineTransform(translationByX: cx, byY: cy))
        return t
    }

    /// Two points on the horizon line through the centre of the analysed region, at its left and
    /// right edges (normalised, lower-left origin, possibly outside 0...1 vertically), for drawing.
    /// `aspectRatio` is the region's width / height.
    public func lineEndpoints(aspectRatio: Double) -> (NormalizedPoint, NormalizedPoint) {
        let dy = 0.5 * tan(radians) * aspectRatio
        return (NormalizedPoint(x: 0, y: 0.5 - dy), NormalizedPoint(x: 1, y: 0.5 + dy))
    }
}
