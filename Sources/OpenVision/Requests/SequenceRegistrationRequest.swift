import Synchronization

/// What the sequence registration requests share (`TrackTranslationalImageRegistrationRequest`,
/// `TrackHomographicImageRegistrationRequest`): the previous frame, kept by the request (gray plane, cropped to
/// `regionOfInterest`), is the reference each new frame is aligned with. Nil on the first frame and for flat
/// frames; a frame of another size than the previous one throws `invalidArgument`.
public class SequenceRegistrationRequest<Alignment: ReportableResult>: StatefulRequest, CompletionHandlingRequest,
    @unchecked Sendable
{
    // @unchecked: not final only for its two subclasses in this module; every stored property is an immutable
    // `let` of a Sendable type (the options and the previous frame are behind locks).
    /// The alignment of this frame with the previous one; nil on the first frame and when nothing aligns.
    public typealias Result = Alignment?
    typealias Align = @Sendable (_ reference: VisionImage, _ current: VisionImage) throws(VisionError) -> Alignment?

    private let what: String
    private let options = Mutex(StatefulOptions<Result>())
    private let previous = PreviousFrame()
    private let align: Align

    init(what: String, completionHandler: RequestCompletionHandler<Result>?, align: @escaping Align) {
        self.what = what
        self.align = align
        options.withLock { $0.completionHandler = completionHandler }
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect {
        get { options.withLock { $0.regionOfInterest } }
        set { options.withLock { $0.regionOfInterest = newValue } }
    }

    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>? {
        get { options.withLock { $0.completionHandler } }
        set { options.withLock { $0.completionHandler = newValue } }
    }

    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }

    /// Frames performed since creation or the last `reset()`.
    public var frameCount: Int { previous.frameCount }

    /// Forgets the previous frame: the next frame starts a new sequence (and returns nil).
    public func reset() { previous.reset() }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let current = try imageForRegionOfInterest(in: context)
        guard let reference = try previous.exchange(current, what: what) else { return nil }
        return try align(reference, current)
    }
}
