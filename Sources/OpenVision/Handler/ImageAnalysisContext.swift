import Synchronization

/// The image a handler gives its requests. Decoded lazily and at most once per representation:
/// colour when any request needs colour, otherwise only the gray (luma) plane, which is several
/// times cheaper to decode and is all that barcode, text, face and rectangle detection read.
/// Crops for regions of interest are made once and shared by the requests that ask for them.
public final class ImageAnalysisContext: Sendable {
    private struct State {
        var color: Result<VisionImage, VisionError>?
        var luma: Result<VisionImage, VisionError>?
        var crops: [CropKey: VisionImage] = [:]
    }

    private struct CropKey: Hashable {
        var region: NormalizedRect
        var color: Bool
    }

    private let decode: @Sendable (_ lumaOnly: Bool) throws(VisionError) -> VisionImage
    private let state = Mutex(State())

    /// A context over an already decoded image.
    public init(image: VisionImage) {
        self.decode = { _ throws(VisionError) in image }
    }

    /// A context that decodes on demand; `decode(true)` may return a luma-only image.
    init(decode: @escaping @Sendable (_ lumaOnly: Bool) throws(VisionError) -> VisionImage) {
        self.decode = decode
    }

    /// The whole upright image in colour (decoded on first use).
    public func colorImage() throws(VisionError) -> VisionImage {
        try state.withLock { state throws(VisionError) -> VisionImage in
            if let color = state.color { return try color.get() }
            let made = Result { () throws(VisionError) -> VisionImage in try decode(false) }
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
            let made = Result { () throws(VisionError) -> VisionImage in try decode(true) }
            state.luma = made
            return try made.get()
        }
    }

    /// The colour image inside `regionOfInterest`; throws `invalidArgument` when the region is
    /// empty or reaches outside 0...1.
    public func image(for regionOfInterest: NormalizedRect) throws(VisionError) -> VisionImage {
        try crop(regionOfInterest, color: true)
    }

    /// The image inside `regionOfInterest` with at least its gray plane (see `lumaImage()`).
    public func lumaImage(for regionOfInterest: NormalizedRect) throws(VisionError) -> VisionImage {
        try crop(regionOfInterest, color: false)
    }

    private func crop(_ region: NormalizedRect, color: Bool) throws(VisionError) -> VisionImage {
        guard region.isWithinUnitSquare else {
            throw VisionError(.invalidArgument, "regionOfInterest \(region) must have positive size and lie within 0...1")
        }
        let whole = color ? try colorImage() : try lumaImage()
        if region == .fullImage { return whole }
        let key = CropKey(region: region, color: !whole.isGrayscale)
        if let cached = state.withLock({ $0.crops[key] }) { return cached }
        let crop = try whole.cropped(to: region)
        state.withLock { $0.crops[key] = crop }
        return crop
    }
}
