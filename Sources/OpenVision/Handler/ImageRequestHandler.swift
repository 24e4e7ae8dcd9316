import Foundation
import Synchronization

/// Runs requests on one image, as Vision's `ImageRequestHandler`. The image is read and
/// decoded once, on first use, and shared by every request performed on this handler. When no
/// request needs colour only the gray plane is decoded (see `ImageAnalysisContext`).
/// Safe to use from many tasks at once.
public final class ImageRequestHandler: Sendable {
    private enum Source: Sendable {
        case url(URL)
        case data(Data)
        case pixels(PixelBuffer)
        case image(VisionImage)
    }

    private let source: Source
    /// The orientation given explicitly, overriding any EXIF orientation in the file.
    public let orientation: ImageOrientation?
    /// Images declaring more pixels than this are refused before decoding.
    public let maximumPixelCount: Int
    /// True: a damaged JPEG that the decoder warns about is an `invalidImage` error for every
    /// request, instead of gray-padded pixels reported in `decoderWarnings()`.
    public let strictDecoding: Bool
    private let analysisContext: ImageAnalysisContext

    /// A handler for the image file at `url` (a file URL).
    public convenience init(
        _ url: URL, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount, strictDecoding: Bool = false
    ) {
        self.init(
            source: .url(url), orientation: orientation, maximumPixelCount: maximumPixelCount,
            strictDecoding: strictDecoding)
    }

    /// A handler for the image file at `path`.
    public convenience init(
        path: String, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount, strictDecoding: Bool = false
    ) {
        self.init(
            URL(fileURLWithPath: path), orientation: orientation, maximumPixelCount: maximumPixelCount,
            strictDecoding: strictDecoding)
    }

    /// A handler for encoded image bytes (JPEG, PNG, WebP, BMP, TIFF).
    public convenience init(
        data: Data, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount, strictDecoding: Bool = false
    ) {
        self.init(
            source: .data(data), orientation: orientation, maximumPixelCount: maximumPixelCount,
            strictDecoding: strictDecoding)
    }

    /// A handler for encoded image bytes, as Apple's Swift API spells it (`ImageRequestHandler(_: Data, orientation:)`);
    /// the same as `init(data:orientation:…)`.
    public convenience init(
        _ data: Data, orientation: ImageOrientation? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount, strictDecoding: Bool = false
    ) {
        self.init(
            data: data, orientation: orientation, maximumPixelCount: maximumPixelCount, strictDecoding: strictDecoding)
    }

    /// A handler for raw pixels; `orientation` says how they relate to upright (default `.up`).
    public convenience init(
        pixels: PixelBuffer, orientation: ImageOrientation = .up,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    ) {
        self.init(
            source: .pixels(pixels), orientation: orientation, maximumPixelCount: maximumPixelCount,
            strictDecoding: false)
    }

    /// A handler for an image already decoded and upright.
    public convenience init(image: VisionImage) {
        self.init(source: .image(image), orientation: nil, maximumPixelCount: .max, strictDecoding: false)
    }

    private init(
        source: Source, orientation: ImageOrientation?, maximumPixelCount: Int, strictDecoding: Bool,
        context: ImageAnalysisContext? = nil
    ) {
        self.source = source
        self.orientation = orientation
        self.maximumPixelCount = maximumPixelCount
        self.strictDecoding = strictDecoding
        self.analysisContext = context ?? Self.makeContext(source, orientation, maximumPixelCount, strictDecoding)
    }

    /// A handler over a context of the caller's (tests: a decode that records where it runs).
    convenience init(context: ImageAnalysisContext) {
        self.init(
            source: .data(Data()), orientation: nil, maximumPixelCount: .max, strictDecoding: false, context: context)
    }

    /// A handler for one frame of a sequence at `frameTime` (see `ImageAnalysisContext.frameTime`).
    convenience init(image: VisionImage, frameTime: Duration?) {
        self.init(
            source: .image(image), orientation: nil, maximumPixelCount: .max, strictDecoding: false,
            context: ImageAnalysisContext(image: image, frameTime: frameTime))
    }

    /// The decoded upright image in colour (decoded on first call, then shared).
    public func image() throws(VisionError) -> VisionImage {
        try analysisContext.colorImage()
    }

    /// The decoded upright image with at least its gray plane: colour if anything decoded colour,
    /// otherwise a luma-only decode (cheaper; what barcode, text, face and rectangle requests read).
    public func grayImage() throws(VisionError) -> VisionImage {
        try analysisContext.lumaImage()
    }

    /// The decoder's warnings for what this handler has decoded so far (see
    /// `VisionImage.decoderWarnings`): empty for a clean image. Read it after performing requests.
    public func decoderWarnings() -> [String] {
        analysisContext.decoderWarnings()
    }

    /// The upright image's size in pixels, read from the file's header when nothing is decoded yet.
    public func imageSize() throws(VisionError) -> CGSize {
        try analysisContext.imageSize()
    }

    /// The analysis context this handler's requests read: pass it to a request's `perform(in:)` or
    /// `performWithTimings(in:)` to run it synchronously on this handler's image.
    public var context: ImageAnalysisContext { analysisContext }

    /// Decodes now what `requests` will read, as `perform` would (e.g. to time decoding apart from the
    /// requests); later `perform`s of these requests reuse it.
    public func decode(for requests: [any VisionRequest]) throws(VisionError) {
        _ = try prepare(requests)
    }

    /// `decode(for:)` on Dispatch's pool, so that the decode (and a model a request loads to size its input)
    /// never blocks the caller's cooperative thread.
    public func prepare(for requests: [any VisionRequest]) async throws(VisionError) {
        _ = try await prepareOffPool(requests)
    }

    /// `image()` on Dispatch's pool: the colour image, decoded off the caller's cooperative thread.
    public func colorImage() async throws(VisionError) -> VisionImage {
        try await RequestRunner.offload { Result { () throws(VisionError) in try self.image() } }.get()
    }

    /// Decodes what `requests` will read, so that a decoding error surfaces once, before any runs:
    /// luma only when none needs colour (at the smallest JPEG scale every request accepts); one full colour decode when gray and colour readers mix (it
    /// serves both); otherwise the colour image at the smallest JPEG scale every request accepts.
    private func prepare(_ requests: [any VisionRequest]) throws(VisionError) -> ImageAnalysisContext {
        let colour = requests.filter { $0.requiresColor }
        if colour.isEmpty {
            try analysisContext.prepareLuma(
                for: requests.map { request in
                    (request.regionOfInterest, { request.minimumImageScale(width: $0, height: $1) })
                })
        } else if colour.count < requests.count {
            _ = try analysisContext.colorImage()
        } else {
            try analysisContext.prepareColor(
                for: colour.map { request in
                    (request.regionOfInterest, { request.minimumImageScale(width: $0, height: $1) })
                })
        }
        return analysisContext
    }

    private static func makeContext(
        _ source: Source, _ orientation: ImageOrientation?, _ limit: Int,
        _ strict: Bool
    ) -> ImageAnalysisContext {
        switch source {
        case .image(let image):
            return ImageAnalysisContext(image: image)
        case .pixels(let pixels):
            return ImageAnalysisContext(
                source: .init(
                    geometry: { () throws(VisionError) in nil },
                    decode: { _, _ throws(VisionError) in
                        try VisionImage(pixels: pixels, orientation: orientation ?? .up, maximumPixelCount: limit)
                    }))
        case .url(let url):
            return encodedContext(
                EncodedImage(path: url.path, limit: limit) { () throws(VisionError) in
                    guard url.isFileURL else {
                        throw VisionError(.invalidArgument, "only file URLs can be read, not \(url.absoluteString)")
                    }
                    return try VisionImage.readFile(url)
                }, orientation, strict)
        case .data(let data):
            return encodedContext(
                EncodedImage(path: nil, limit: limit) { () throws(VisionError) in data }, orientation, strict)
        }
    }

    private static func encodedContext(_ encoded: EncodedImage, _ orientation: ImageOrientation?, _ strict: Bool)
        -> ImageAnalysisContext
    {
        ImageAnalysisContext(
            source: .init(
                geometry: { () throws(VisionError) in
                    let header = try encoded.load().header
                    let swaps = (orientation ?? header.orientation ?? .up).swapsDimensions
                    return .init(
                        width: swaps ? header.height : header.width, height: swaps ? header.width : header.height,
                        reducible: header.format == .jpeg)
                },
                decode: { lumaOnly, reduction throws(VisionError) in
                    let (data, header) = try encoded.load()
                    return try encoded.attributing { () throws(VisionError) in
                        try VisionImage(
                            data: data, header: header, orientation: orientation, lumaOnly: lumaOnly,
                            reduction: reduction,
                            strictDecoding: strict)
                    }
                }))
    }

    // MARK: Performing

    /// An encoded image up to this many bytes may be read on the caller's task to learn its size (a
    /// small read); a larger one is left to the pool.
    static let inlineReadLimit = 64 << 10

    /// Whether `request`, run alone, runs on the caller's task: it has a `maximumInlinePixelCount` and
    /// the image is known to be no larger (decoded already, raw pixels, or the header of small bytes).
    /// Anything unknown or failing (a missing file, a bad header) goes to the pool, which reports it.
    func runsInline(_ request: any VisionRequest) -> Bool {
        let limit = request.maximumInlinePixelCount
        guard limit > 0 else { return false }
        let width: Int
        let height: Int
        switch source {
        case .image(let image):
            (width, height) = (image.width, image.height)
        case .pixels(let pixels):
            (width, height) = (pixels.width, pixels.height)
        case .data(let data):
            guard data.count <= Self.inlineReadLimit, let size = try? analysisContext.imageSize() else { return false }
            (width, height) = (Int(size.width), Int(size.height))
        case .url(let url):
            guard url.isFileURL, case .file(let bytes) = FileStatus.of(url.path), bytes <= Self.inlineReadLimit,
                let size = try? analysisContext.imageSize()
            else { return false }
            (width, height) = (Int(size.width), Int(size.height))
        }
        let (pixels, overflow) = max(width, 0).multipliedReportingOverflow(by: max(height, 0))
        return !overflow && pixels <= limit
    }

    /// `prepare` on the global pool.
    private func prepareOffPool(_ requests: [any VisionRequest]) async throws(VisionError) -> ImageAnalysisContext {
        try await RequestRunner.offload { Result { () throws(VisionError) in try self.prepare(requests) } }.get()
    }

    /// Runs one request and returns its results.
    public func perform<R: VisionRequest>(_ request: R) async throws(VisionError) -> R.Result {
        if Task.isCancelled {
            RequestRunner.notify(request, Result<R.Result, VisionError>.failure(RequestRunner.cancelledError))
            throw RequestRunner.cancelledError
        }
        let result = await RequestRunner.offload { () -> Result<R.Result, VisionError> in
            Result { () throws(VisionError) -> R.Result in
                try RequestRunner.run(request, in: try self.prepare([request]))
            }
        }
        return try result.get()
    }

    /// Runs several requests on the image concurrently and returns their results in order;
    /// throws the first error any of them raises.
    public func perform<R1: VisionRequest, R2: VisionRequest>(
        _ r1: R1, _ r2: R2
    ) async throws(VisionError) -> (R1.Result, R2.Result) {
        let context = try await prepareOffPool([r1, r2])
        async let a = RequestRunner.runOffPool(r1, in: context)
        async let b = RequestRunner.runOffPool(r2, in: context)
        return (try await a.get(), try await b.get())
    }

    /// Runs three requests concurrently (see `perform(_:_:)`).
    public func perform<R1: VisionRequest, R2: VisionRequest, R3: VisionRequest>(
        _ r1: R1, _ r2: R2, _ r3: R3
    ) async throws(VisionError) -> (R1.Result, R2.Result, R3.Result) {
        let context = try await prepareOffPool([r1, r2, r3])
        async let a = RequestRunner.runOffPool(r1, in: context)
        async let b = RequestRunner.runOffPool(r2, in: context)
        async let c = RequestRunner.runOffPool(r3, in: context)
        return (try await a.get(), try await b.get(), try await c.get())
    }

    /// Runs four requests concurrently (see `perform(_:_:)`).
    public func perform<R1: VisionRequest, R2: VisionRequest, R3: VisionRequest, R4: VisionRequest>(
        _ r1: R1, _ r2: R2, _ r3: R3, _ r4: R4
    ) async throws(VisionError) -> (R1.Result, R2.Result, R3.Result, R4.Result) {
        let context = try await prepareOffPool([r1, r2, r3, r4])
        async let a = RequestRunner.runOffPool(r1, in: context)
        async let b = RequestRunner.runOffPool(r2, in: context)
        async let c = RequestRunner.runOffPool(r3, in: context)
        async let d = RequestRunner.runOffPool(r4, in: context)
        return (try await a.get(), try await b.get(), try await c.get(), try await d.get())
    }

    /// Runs any number of requests concurrently; each gets its own outcome (results or error),
    /// in the order given. A decoding failure becomes every request's error. Completion
    /// handlers of `CompletionHandlingRequest`s are called as each finishes.
    public func performAll(_ requests: [any VisionRequest]) async -> [VisionRequestOutcome] {
        if requests.count == 1 {
            // One request: decode and run in one trip to the pool (each trip costs a thread wake-up,
            // a visible share of the time on small images).
            let request = requests[0]
            if Task.isCancelled { return [RequestRunner.failedOutcome(request, RequestRunner.cancelledError)] }
            let run = { @Sendable () -> VisionRequestOutcome in
                do throws(VisionError) {
                    return RequestRunner.runErased(request, in: try self.prepare(requests))
                } catch {
                    return RequestRunner.failedOutcome(request, error)
                }
            }
            // Short work on a small image stays on this task (see `VisionRequest.maximumInlinePixelCount`).
            if runsInline(request) { return [run()] }
            return [await RequestRunner.offload(run)]
        }
        let context: ImageAnalysisContext
        do {
            context = try await prepareOffPool(requests)
        } catch {
            return requests.map { RequestRunner.failedOutcome($0, error) }
        }
        return await withTaskGroup(of: (Int, VisionRequestOutcome).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    if Task.isCancelled {
                        return (index, RequestRunner.failedOutcome(request, RequestRunner.cancelledError))
                    }
                    return await RequestRunner.offload { (index, RequestRunner.runErased(request, in: context)) }
                }
            }
            var outcomes = [VisionRequestOutcome?](repeating: nil, count: requests.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.map { $0! }
        }
    }

    /// Runs requests concurrently, calling each request's completion handler, and throws the
    /// first error (the synchronous `VNImageRequestHandler.perform(_:)` style).
    public func perform(_ requests: [any VisionRequest]) async throws(VisionError) {
        for outcome in await performAll(requests) {
            if case .failure(let error) = outcome.result { throw error }
        }
    }
}

/// One request's outcome from `ImageRequestHandler.performAll(_:)`: its results or its error.
public struct VisionRequestOutcome: Sendable {
    /// The request that ran.
    public let request: any VisionRequest
    /// Its results (of type `request.Result`) or the error it raised.
    public let result: Result<any Sendable, VisionError>
    /// How long the request ran (zero when the image could not be decoded).
    public let duration: Duration
    /// The results as they report themselves (`VisionRequest.reportable`); nil when the request failed.
    public let reportable: (any ReportableResult)?

    /// The results typed as `R.Result`, or nil if the request failed or is of another type.
    public func results<R: VisionRequest>(as type: R.Type) -> R.Result? {
        // Check the request's type, not only the value's: an empty array casts to any array type.
        guard request is R, case .success(let value) = result else { return nil }
        return value as? R.Result
    }

    /// The error, if the request failed.
    public var error: VisionError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
