import Synchronization

/// The decoded, upright image a handler gives its requests, with crops for regions of interest
/// made once and shared by every request that asks for the same region.
public final class ImageAnalysisContext: Sendable {
    /// The whole upright image.
    public let image: VisionImage
    private let crops = Mutex<[NormalizedRect: VisionImage]>([:])

    public init(image: VisionImage) {
        self.image = image
    }

    /// The part of the image inside `regionOfInterest`; throws `invalidArgument` when the region
    /// is empty or reaches outside 0...1.
    public func image(for regionOfInterest: NormalizedRect) throws(VisionError) -> VisionImage {
        guard regionOfInterest.isWithinUnitSquare else {
            throw VisionError(.invalidArgument,
                              "regionOfInterest \(regionOfInterest) must have positive size and lie within 0...1")
        }
        if regionOfInterest == .fullImage { return image }
        if let cached = crops.withLock({ $0[regionOfInterest] }) { return cached }
        let crop = try image.cropped(to: regionOfInterest)
        crops.withLock { $0[regionOfInterest] = crop }
        return crop
    }
}
