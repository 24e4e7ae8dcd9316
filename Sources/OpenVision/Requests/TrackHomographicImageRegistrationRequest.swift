/// Aligns each frame of a sequence with the previous one, as Vision's
/// `TrackHomographicImageRegistrationRequest`: the same algorithm as `HomographicImageRegistrationRequest`, with the
/// previous frame as the reference and the current frame as the target, so the result maps the
/// current frame onto the previous one (chain them to map every frame onto the first).
///
/// A stateful request: it keeps the previous frame (gray plane, cropped to `regionOfInterest`) itself;
/// perform the same instance on every frame, in order. Nil on the first frame (nothing to compare
/// with) and for flat frames. A frame of another size than the previous one throws `invalidArgument`
/// and starts the sequence again at the new size (`SequenceRegistrationRequest`).
public final class TrackHomographicImageRegistrationRequest: SequenceRegistrationRequest<
    ImageHomographicAlignmentObservation
>, @unchecked Sendable
{
    // @unchecked: adds no stored state to SequenceRegistrationRequest, whose state is Sendable and behind locks.

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        super.init(what: "homographic registration", completionHandler: completionHandler) {
            reference, current throws(VisionError) in
            try OpenCVRegistration.homography(reference: reference, floating: current)
        }
    }
}
