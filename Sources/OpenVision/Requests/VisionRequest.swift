import Foundation

/// An analysis to run on an image, as Vision's `VisionRequest`: a value with options, run by
/// an `ImageRequestHandler` (or `SequenceRequestHandler`), producing `Result`.
public protocol VisionRequest: Sendable {
    /// What the request produces, usually an array of observations.
    associatedtype Result: Sendable

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to this region, as in Vision (see `NormalizedRect.toFullImage`).
    var regionOfInterest: NormalizedRect { get set }

    /// True when the request reads colour; false lets handlers decode only the gray plane when
    /// no request needs colour. Default true.
    var requiresColor: Bool { get }

    /// The fraction of full resolution this request needs, given its region's full-resolution size
    /// in pixels: 1 (the default) for full resolution. Model requests return what their input size
    /// needs, so handlers may decode a JPEG at 1/2, 1/4 or 1/8 scale for them.
    func minimumImageScale(width: Double, height: Double) -> Double

    /// The largest image, in pixels, on which this request's work is short (about a millisecond or less),
    /// so that a handler running it alone runs it on the caller's task instead of hopping to Dispatch's
    /// pool and back (two thread wake-ups, a visible share of such short work). 0 (the default): always
    /// on the pool, as for requests whose time does not shrink with the image (models, OCR).
    var maximumInlinePixelCount: Int { get }

    /// Runs the request on the handler's decoded image. Called by handlers, possibly concurrently
    /// with other requests on the same image; implementations must not mutate shared state.
    func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result

    /// These results as they report themselves (JSON, overlays, image maps). Default: the results themselves,
    /// when their type is a `ReportableResult`; a request whose results share a type with another's but not its
    /// meaning (animals are objects, a flow field is a pixel buffer) wraps them in its own entry, and results with
    /// no report say so (`UnreportedResult`). A request that says nothing does not compile.
    func reportable(_ results: Result) -> any ReportableResult
}

extension VisionRequest where Result: ReportableResult {
    /// Default for reportable results: the results themselves.
    public func reportable(_ results: Result) -> any ReportableResult { results }
}

/// The `maximumInlinePixelCount` of the classic requests whose time scales with the image (contours,
/// horizon, saliency, rectangles, documents): about a millisecond of work at 256 × 256 on a small machine.
let classicInlinePixelCount = 256 * 256

/// Called with a request's results (or its error) after a handler runs it, as the
/// completion handlers of Vision's requests are.
public typealias RequestCompletionHandler<Result: Sendable> = @Sendable (Swift.Result<Result, VisionError>) -> Void

/// A request that can report to a completion handler, in the style of Vision's
/// `VNRequest(completionHandler:)`.
public protocol CompletionHandlingRequest: VisionRequest {
    /// Called after the request runs, on the task that ran it.
    var completionHandler: RequestCompletionHandler<Result>? { get set }
}

extension VisionRequest {
    /// Default: true (reads colour).
    public var requiresColor: Bool { true }

    /// Default: 1 (full resolution).
    public func minimumImageScale(width: Double, height: Double) -> Double { 1 }

    /// Default: 0 (always runs on Dispatch's pool).
    public var maximumInlinePixelCount: Int { 0 }

    /// The name reports use for this request's errors and timings: its kind's (`RequestKind.name`: "barcodes",
    /// "featureprint", "detect", …), else its type's name.
    public var reportName: String { RequestKind.kind(of: self)?.name ?? String(describing: Self.self) }

    /// Validates the region of interest and returns the image region to analyse, gray-only when the
    /// request needs no colour and nothing else decoded colour, at reduced JPEG scale when
    /// `minimumImageScale` allows it.
    func imageForRegionOfInterest(in context: ImageAnalysisContext) throws(VisionError) -> VisionImage {
        guard requiresColor else {
            return try context.lumaImage(for: regionOfInterest) { minimumImageScale(width: $0, height: $1) }
        }
        return try context.image(for: regionOfInterest) { minimumImageScale(width: $0, height: $1) }
    }

    /// Runs the request on one image file, for one-off use (`try await request.perform(on: url)`).
    public func perform(on url: URL, orientation: ImageOrientation? = nil) async throws(VisionError) -> Result {
        try await ImageRequestHandler(url, orientation: orientation).perform(self)
    }

    /// Runs the request on encoded image bytes.
    public func perform(on data: Data, orientation: ImageOrientation? = nil) async throws(VisionError) -> Result {
        try await ImageRequestHandler(data: data, orientation: orientation).perform(self)
    }
}
