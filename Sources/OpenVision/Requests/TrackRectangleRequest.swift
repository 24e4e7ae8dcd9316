/// Follows one rectangle (a quadrilateral: a document, a screen, a sign) through a sequence of frames, as
/// Vision's `TrackRectangleRequest`: its four corners move with the scene.
///
/// The same semantics, levels, confidence and errors as `TrackObjectRequest` (`inputObservation` becomes the
/// latest result; `isLastFrame` releases the tracker). The box is tracked by the level's OpenCV tracker (it
/// gives the confidence); the corners by a homography fitted (RANSAC) on corners of the image inside the
/// quadrilateral, tracked frame to frame by pyramidal Lucas–Kanade (`ov_object_tracker.cpp`); with too few
/// of those (a flat quadrilateral) the corners follow the box's translation and scale.
public final class TrackRectangleRequest: TrackingRequest<RectangleObservation>, @unchecked Sendable {
    // @unchecked: adds no stored state to TrackingRequest, whose state is Sendable and behind locks.

    /// Reported as `rectangles`.
    public override func reportable(_ results: Result) -> any ReportableResult { results }

    /// Tracks `rectangleObservation`'s corners from the next frame performed on.
    public init(rectangleObservation: RectangleObservation, completionHandler: RequestCompletionHandler<Result>? = nil)
    {
        super.init(
            input: rectangleObservation, what: "rectangle tracking",
            completionHandler: completionHandler,
            start: { (input: RectangleObservation, image: VisionImage) throws(VisionError) in
                for corner in input.corners where !(corner.x.isFinite && corner.y.isFinite) {
                    throw VisionError(.invalidArgument, "rectangle tracking: the corner \(corner) is not finite")
                }
                let box = try PixelBox(input.boundingBox, in: image, what: "rectangle tracking")
                let quad = input.corners.map { (x: $0.x * Double(image.width), y: (1 - $0.y) * Double(image.height)) }
                return (box, quad)
            },
            result: { input, step, image in
                let convert = PixelToNormalized(image)
                guard let step else {
                    return RectangleObservation(
                        topLeft: input.topLeft, topRight: input.topRight, bottomRight: input.bottomRight,
                        bottomLeft: input.bottomLeft, confidence: 1, uuid: input.uuid)
                }
                let c = step.quad.map { convert.point($0.x, $0.y) }
                return RectangleObservation(
                    topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3],
                    confidence: Float(step.confidence), uuid: input.uuid)
            })
    }
}
