/// Follows one object through a sequence of frames, as Vision's `TrackObjectRequest`: start it with the
/// object's box (a detection, or any box), perform it on each next frame in order, read the box back.
///
/// Vision's semantics: after each perform, `inputObservation` is the latest result (same `uuid`), so the same
/// request goes on to the next frame; setting `inputObservation` yourself (a fresh detection) starts the
/// tracker again from it on the next frame. The first frame performed is the one the input box describes: it
/// starts the tracker and returns that box (clipped to the image) with confidence 1. Setting `isLastFrame`
/// releases the tracker (after the frame being performed, or at once between frames); a later perform
/// starts again from `inputObservation`.
///
/// Trackers (OpenCV, `ov_object_tracker.cpp`, default parameters): `.accurate` is CSRT, `.fast` is KCF, chosen
/// from measurements on the tests' moving textured patch (120 frames; min IoU with the truth / ms per frame,
/// Python OpenCV 4.6 on a loaded 2-core machine): CSRT 0.891 / 72–128, KCF 0.843 / 5–18, MIL 0.930 / 65. With the
/// patch growing 30% and turning 8°, CSRT keeps 0.757 while the fixed-size KCF and MIL fall to 0.461: CSRT is
/// the one that follows scale, KCF the cheapest by far; MIL is neither. A level change applies when the
/// tracker next starts (`scripts/bench 3 sot` compares both with Python OpenCV).
///
/// Confidence: CSRT and KCF keep their correlation peaks internal, so it is the normalised
/// cross-correlation (clamped to 0...1) of the first frame's patch with the patch under the tracked box, and
/// 0 when the tracker reports the target lost: it falls when the target is covered or gone.
///
/// Errors (`invalidArgument`): a box with non-finite values, outside the image or under 2×2 pixels; a frame
/// of another size than the one the tracker started on (`reset()` or a new `inputObservation` starts over).
/// Results are normalised with a lower-left origin, relative to the full frame (the region of interest is
/// not used).
public final class TrackObjectRequest: TrackingRequest<DetectedObjectObservation>, @unchecked Sendable {
    // @unchecked: adds no stored state to TrackingRequest, whose state is Sendable and behind locks.

    /// Tracks `detectedObjectObservation`'s box from the next frame performed on.
    public init(
        detectedObjectObservation: DetectedObjectObservation, completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        super.init(
            input: detectedObjectObservation, what: "object tracking",
            completionHandler: completionHandler,
            start: { (input: DetectedObjectObservation, image: VisionImage) throws(VisionError) in
                (try PixelBox(input.boundingBox, in: image, what: "object tracking"), nil)
            },
            result: { input, step, image in
                let convert = PixelToNormalized(image)
                guard let step else {
                    let box =
                        (try? PixelBox(input.boundingBox, in: image, what: "")).map {
                            convert.rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height)
                        } ?? input.boundingBox
                    return DetectedObjectObservation(boundingBox: box, confidence: 1, uuid: input.uuid)
                }
                return DetectedObjectObservation(
                    boundingBox: convert.rect(
                        x: step.box.x, y: step.box.y, width: step.box.width,
                        height: step.box.height),
                    confidence: Float(step.confidence), uuid: input.uuid)
            })
    }
}
