import Foundation
import Synchronization

/// The image a handler gives its requests. Decoded lazily and at most once per representation:
/// colour when any request needs colour, otherwise only the gray (luma) plane, which is several
/// times cheaper to decode and is all that barcode, text, face and rectangle detection read.
/// Model requests, which shrink the image to their input size anyway, may get a JPEG decoded at
/// 1/2, 1/4 or 1/8 scale (see `image(for:minimumScale:)`). Crops for regions of interest are made
/// once and shared by the requests that ask for them.
public final class ImageAnalysisContext: Sendable {
    /// What a source says before any pixel is decoded.
    struct Geometry: Sendable {
        /// The upright size in pixels.
        var width: Int
        var height: Int
        /// True when the source can be decoded at 1/2, 1/4 or 1/8 scale (JPEG).
        var reducible: Bool
    }

    /// How a context gets its pixels.
    struct Source: Sendable {
        /// The geometry, read without decoding; nil when it cannot be known without decoding.
        var geometry: @Sendable () throws(VisionError) -> Geometry?
        /// Decodes the upright image: luma-only when asked (may still return colour), at 1/`reduction` scale.
        var decode: @Sendable (_ lumaOnly: Bool, _ reduction: Int) throws(VisionError) -> VisionImage
    }

    private struct State {
        var geometry: Result<Geometry?, VisionError>?
        var color: Result<VisionImage, VisionError>?
        var luma: Result<VisionImage, VisionError>?
        /// Colour images decoded at reduced scale, by reduction factor (2, 4, 8).
        var reduced: [Int: Result<VisionImage, VisionError>] = [:]
        /// Luma-only images decoded at reduced scale, by reduction factor (2, 4, 8).
        var reducedLuma: [Int: Result<VisionImage, VisionError>] = [:]
        var crops: [CropKey: VisionImage] = [:]
        /// Decodes made so far (tests: one decode per plan).
        var decodes = 0
    }

    private struct CropKey: Hashable {
        var region: NormalizedRect
        var color: Bool
        /// The width of the image cropped: tells reduced decodes apart.
        var sourceWidth: Int
    }

    private let source: Source
    private let state = Mutex(State())
    /// For a frame of a sequence: its time in the sequence (the source's timestamp), when known.
    /// Stateful requests (`DetectTrajectoriesRequest`) time their observations with it; nil for a still
    /// image or a frame without a timestamp.
    public let frameTime: Duration?

    /// A context over an already decoded image; `frameTime` for a frame of a sequence.
    public init(image: VisionImage, frameTime: Duration? = nil) {
        self.source = Source(
            geometry: { () throws(VisionError) in Geometry(width: image.width, height: image.height, reducible: false)
            },
            decode: { _, _ throws(VisionError) in image })
        self.frameTime = frameTime
    }

    /// A context that decodes on demand.
    init(source: Source) {
        self.source = source
        self.frameTime = nil
    }

    /// The decoder's warnings of every image decoded so far (colour, luma, and both at reduced scale), each once.
    public func decoderWarnings() -> [String] {
        state.withLock { state in
            let reduced = (state.reduced.sorted { $0.key < $1.key } + state.reducedLuma.sorted { $0.key < $1.key }).map
            { Optional($0.value) }
            let decoded = [state.color, state.luma] + reduced
            var seen: [String] = []
            for case .success(let image)? in decoded {
                for warning in image.decoderWarnings where !seen.contains(warning) { seen.append(warning) }
            }
            return seen
        }
    }

    /// How many times the source was decoded (tests: a handler's plan decodes once).
    var decodeCount: Int { state.withLock { $0.decodes } }

    /// The upright size of the whole image in pixels, from the file's header when nothing is decoded yet.
    public func imageSize() throws(VisionError) -> CGSize {
        if let g = try geometry() { return CGSize(width: g.width, height: g.height) }
        return try lumaImage().size
    }

    private func geometry() throws(VisionError) -> Geometry? {
        try state.withLock { state throws(VisionError) -> Geometry? in
            if let known = state.geometry { return try known.get() }
            let made = Result { () throws(VisionError) -> Geometry? in try source.geometry() }
            state.geometry = made
            return try made.get()
        }
    }

    /// The whole upright image in colour (decoded on first use).
    public func colorImage() throws(VisionError) -> VisionImage {
        try state.withLock { state throws(VisionError) -> VisionImage in
            if let color = state.color { return try color.get() }
            let made = Result { () throws(VisionError) -> VisionImage in
                state.decodes += 1
                return try source.decode(false, 1)
            }
            state.color = made
            return try made.get()
        }
    }

    /// The whole upright image with at least its gray plane: the colour image when it is already
    /// decoded (or the source is raw pixels), otherwise a luma-only decode.
    public func lumaImage() throws(VisionError) -> VisionImage {
        try state.withLock { state throws(VisionError) -> VisionImage in
            if let color = state.color { return try color.get() }
            if let luma = state.luma { return try luma.get() }
            let made = Result { () throws(VisionError) -> VisionImage in
                state.decodes += 1
                return try source.decode(true, 1)
            }
            state.luma = made
            return try made.get()
        }
    }

    /// The colour image inside `regionOfInterest`; throws `invalidArgument` when the region is
    /// empty or reaches outside 0...1.
    public func image(for regionOfInterest: NormalizedRect) throws(VisionError) -> VisionImage {
        try crop(regionOfInterest, color: true, reduction: 1)
    }

    /// The colour image inside `regionOfInterest`, at no less than `minimumScale(width, height)` of
    /// its full resolution, where width × height is the region's size in full-resolution pixels.
    /// A JPEG is then decoded at 1/2, 1/4 or 1/8 scale when that is enough (libjpeg skips most of
    /// the work); the full-resolution image is used when it is decoded already or nothing smaller
    /// suffices. Results normalised to the returned image hold for the full one.
    public func image(
        for regionOfInterest: NormalizedRect,
        minimumScale: (_ width: Double, _ height: Double) -> Double
    ) throws(VisionError) -> VisionImage {
        guard regionOfInterest.isWithinUnitSquare else { return try image(for: regionOfInterest) }
        return try crop(regionOfInterest, color: true, reduction: try reduction(for: regionOfInterest, minimumScale))
    }

    /// The image inside `regionOfInterest` with at least its gray plane (see `lumaImage()`).
    public func lumaImage(for regionOfInterest: NormalizedRect) throws(VisionError) -> VisionImage {
        try crop(regionOfInterest, color: false, reduction: 1)
    }

    /// The image inside `regionOfInterest` with at least its gray plane, at no less than
    /// `minimumScale(width, height)` of its full resolution (see `image(for:minimumScale:)`): gray
    /// requests whose work is bounded by a maximum image dimension let a JPEG decode at 1/2, 1/4 or
    /// 1/8 scale. Any image already decoded at full resolution is used instead.
    public func lumaImage(
        for regionOfInterest: NormalizedRect,
        minimumScale: (_ width: Double, _ height: Double) -> Double
    ) throws(VisionError) -> VisionImage {
        guard regionOfInterest.isWithinUnitSquare else { return try lumaImage(for: regionOfInterest) }
        return try crop(
            regionOfInterest, color: false, reduction: try reduction(for: regionOfInterest, minimumScale, luma: true))
    }

    /// Decodes once what `lumaImage(for:minimumScale:)` will read for each (region, minimum scale): the
    /// luma plane at the smallest reduction any of them needs.
    func prepareLuma(for needs: [(region: NormalizedRect, minimumScale: (_ width: Double, _ height: Double) -> Double)])
        throws(VisionError)
    {
        var reduction = 8
        for need in needs {
            let region = need.region.isWithinUnitSquare ? need.region : .fullImage
            reduction = min(reduction, try self.reduction(for: region, need.minimumScale, luma: true))
        }
        _ = try wholeLumaImage(reduction: reduction)
    }

    /// Decodes once what `image(for:minimumScale:)` will read for each (region, minimum scale): the
    /// colour image at the smallest reduction any of them needs. Handlers call it before running
    /// requests, so that a decoding error surfaces once and every request shares one decode.
    func prepareColor(
        for needs: [(region: NormalizedRect, minimumScale: (_ width: Double, _ height: Double) -> Double)]
    ) throws(VisionError) {
        var reduction = 8
        for need in needs {
            let region = need.region.isWithinUnitSquare ? need.region : .fullImage
            reduction = min(reduction, try self.reduction(for: region, need.minimumScale))
        }
        _ = try wholeColorImage(reduction: reduction)
    }

    /// The largest reduction (1, 2, 4, 8) that keeps `region` at no less than `minimumScale` of
    /// full resolution, or 1 when the colour image is already decoded or the source can't reduce.
    /// For `luma` readers a full-resolution luma decode counts as decoded too.
    private func reduction(
        for region: NormalizedRect, _ minimumScale: (Double, Double) -> Double,
        luma: Bool = false
    ) throws(VisionError) -> Int {
        if state.withLock({ $0.color != nil || (luma && $0.luma != nil) }) { return 1 }
        guard let g = try geometry(), g.reducible else { return 1 }
        let scale = minimumScale(region.width * Double(g.width), region.height * Double(g.height))
        guard scale.isFinite, scale > 0 else { return 1 }
        // Each side decodes to ceil(side / d) ≥ side / d, so 1/d ≥ scale suffices.
        return [8, 4, 2].first { 1 / Double($0) >= scale } ?? 1
    }

    /// The whole colour image at 1/`reduction` scale: an already decoded image at a reduction no
    /// larger than asked for if there is one, else a new decode.
    private func wholeColorImage(reduction: Int) throws(VisionError) -> VisionImage {
        if reduction == 1 { return try colorImage() }
        return try state.withLock { state throws(VisionError) -> VisionImage in
            if let color = state.color { return try color.get() }
            if let cached = state.reduced.keys.filter({ $0 <= reduction }).max(), let image = state.reduced[cached] {
                return try image.get()
            }
            let made = Result { () throws(VisionError) -> VisionImage in
                state.decodes += 1
                return try source.decode(false, reduction)
            }
            state.reduced[reduction] = made
            return try made.get()
        }
    }

    /// The whole image with at least its gray plane at 1/`reduction` scale: an already decoded image
    /// (full resolution, or reduced by no more than asked, colour or luma) if there is one, else a new
    /// luma-only decode.
    private func wholeLumaImage(reduction: Int) throws(VisionError) -> VisionImage {
        if reduction == 1 { return try lumaImage() }
        return try state.withLock { state throws(VisionError) -> VisionImage in
            if let color = state.color { return try color.get() }
            if let luma = state.luma { return try luma.get() }
            for cache in [state.reducedLuma, state.reduced] {
                if let cached = cache.keys.filter({ $0 <= reduction }).max(), let image = cache[cached] {
                    return try image.get()
                }
            }
            let made = Result { () throws(VisionError) -> VisionImage in
                state.decodes += 1
                return try source.decode(true, reduction)
            }
            state.reducedLuma[reduction] = made
            return try made.get()
        }
    }

    private func crop(_ region: NormalizedRect, color: Bool, reduction: Int) throws(VisionError) -> VisionImage {
        guard region.isWithinUnitSquare else {
            throw VisionError(
                .invalidArgument, "regionOfInterest \(region) must have positive size and lie within 0...1")
        }
        let whole = color ? try wholeColorImage(reduction: reduction) : try wholeLumaImage(reduction: reduction)
        if region == .fullImage { return whole }
        let key = CropKey(region: region, color: !whole.isGrayscale, sourceWidth: whole.width)
        if let cached = state.withLock({ $0.crops[key] }) { return cached }
        let crop = try whole.cropped(to: region)
        state.withLock { $0.crops[key] = crop }
        return crop
    }
}
