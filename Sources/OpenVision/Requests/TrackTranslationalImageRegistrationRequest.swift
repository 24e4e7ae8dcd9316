import Synchronization

/// Aligns each frame of a sequence with the previous one, as Vision's
/// `TrackTranslationalImageRegistrationRequest`: the same algorithm as `TranslationalImageRegistrationRequest`, with the
/// previous frame as the reference and the current frame as the target, so the result maps the
/// current frame onto the previous one (chain them to map every frame onto the first).
///
/// A stateful request: it keeps the previous frame (gray plane, cropped to `regionOfInterest`) itself;
/// perform the same instance on every frame, in order. Nil on the first frame (nothing to compare
/// with) and for flat frames. A frame of another size than the previous one throws `invalidArgument`
/// and starts the sequence again at the new size.
public final class TrackTranslationalImageRegistrationRequest: StatefulRequest, CompletionHandlingRequest {
    public typealias Result = ImageTranslationAlignmentObservation?
    public var reportName: String { "translation" }

    private let options = Mutex(StatefulOptions<Result>())
    private let previous = PreviousFrame()

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        options.withLock { $0.completionHandler = completionHandler }
    }

    public var regionOfInterest: NormalizedRect {
        get { options.withLock { $0.regionOfInterest } }
        set { options.withLock { $0.regionOfInterest = newValue } }
    }

    public var completionHandler: RequestCompletionHandler<Result>? {
        get { options.withLock { $0.completionHandler } }
        set { options.withLock { $0.completionHandler = newValue } }
    }

    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }

    public var frameCount: Int { previous.frameCount }

    public func reset() { previous.reset() }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let current = try imageForRegionOfInterest(in: context)
        guard let reference = try previous.exchange(current, what: "translational registration") else { return nil }
        return try OpenCVRegistration.translation(reference: reference, floating: current)
    }
}
