import Foundation

/// A mask of separate instances (people), as Vision's `InstanceMaskObservation`: `instanceMask` labels each pixel
/// of the analysed image (after `regionOfInterest`) 0 for background and 1…n for the instance it belongs to;
/// `allInstances` is 1…n. Masks and masked images are made from any set of instances.
///
/// Besides the labels it keeps each pixel's probability of belonging to its instance (the segmentation model's,
/// 0.5...1 where labelled), which `generateScaledMaskForImage(forInstances:)` gives as a soft mask.
public struct InstanceMaskObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// 0 (background) or the instance's number, per pixel (1 channel, Float values, row-major, top row first).
    public let instanceMask: PixelBufferObservation
    /// The probability of each labelled pixel (0 for background), the same size.
    let probabilities: [Float]

    /// Wraps `labels` (0…n per pixel) and their `probabilities` for a `width` × `height` image. Throws
    /// `invalidArgument` for sizes that do not match or labels that are not whole numbers in 0...255.
    public init(
        width: Int, height: Int, labels: [Float], probabilities: [Float], confidence: Float = 1,
        uuid: UUID = UUID()
    ) throws(VisionError) {
        guard probabilities.count == labels.count else {
            throw VisionError(.invalidArgument, "\(probabilities.count) probabilities for \(labels.count) labels")
        }
        guard labels.allSatisfy({ $0 >= 0 && $0 <= 255 && $0 == $0.rounded() }) else {
            throw VisionError(.invalidArgument, "instance labels must be whole numbers in 0...255")
        }
        instanceMask = try PixelBufferObservation(
            width: width, height: height, values: labels, featureName: "instanceMask")
        self.probabilities = probabilities
        self.confidence = confidence
        self.uuid = uuid
    }

    /// The instances present: 1…n (0, the background, is not an instance).
    public var allInstances: IndexSet {
        var set = IndexSet()
        instanceMask.withUnsafeBufferPointer { v in
            var seen = [Bool](repeating: false, count: 256)
            for x in v where x > 0 { seen[Int(x)] = true }
            for i in 1..<256 where seen[i] { set.insert(i) }
        }
        return set
    }

    /// A mask of `instances` at `instanceMask`'s size: 1 where a pixel belongs to one of them, else 0, as Vision's
    /// `generateMask(forInstances:)`. Throws `invalidArgument` for an instance that is not in `allInstances`.
    public func generateMask(forInstances instances: IndexSet) throws(VisionError) -> PixelBufferObservation {
        let selected = try selection(instances)
        return try PixelBufferObservation(
            width: instanceMask.width, height: instanceMask.height,
            values: instanceMask.values.map { selected[Int($0)] ? 1 : 0 }, featureName: "instanceMask")
    }

    /// A soft mask of `instances` at the analysed image's size, as Vision's `generateScaledMaskForImage(forInstances:from:)`:
    /// the probability that the pixel belongs to one of them (its instance's probability, 0 elsewhere).
    public func generateScaledMaskForImage(forInstances instances: IndexSet) throws(VisionError)
        -> PixelBufferObservation
    {
        let selected = try selection(instances)
        var values = [Float](repeating: 0, count: probabilities.count)
        instanceMask.withUnsafeBufferPointer { labels in
            for i in values.indices where selected[Int(labels[i])] { values[i] = probabilities[i] }
        }
        return try PixelBufferObservation(
            width: instanceMask.width, height: instanceMask.height, values: values, featureName: "instanceMask")
    }

    /// `image` (the image analysed: the region of interest's crop when one was set) with everything but `instances`
    /// black, as Vision's `generateMaskedImage(ofInstances:from:croppedToInstancesExtent:)` (whose background is
    /// transparent; ours has no alpha). `croppedToInstancesExtent` crops it to the instances' bounding box. Throws
    /// `invalidArgument` when the image's size is not the mask's or an instance is not in `allInstances`.
    public func generateMaskedImage(
        ofInstances instances: IndexSet, from image: VisionImage,
        croppedToInstancesExtent: Bool = false
    ) throws(VisionError) -> VisionImage {
        let (w, h) = (instanceMask.width, instanceMask.height)
        guard image.width == w, image.height == h else {
            throw VisionError(
                .invalidArgument, "the image is \(image.width)×\(image.height); the instance mask is \(w)×\(h)")
        }
        let selected = try selection(instances)
        var rgb = image.rgbData()
        var (x0, y0, x1, y1) = (w, h, -1, -1)
        instanceMask.withUnsafeBufferPointer { labels in
            rgb.withUnsafeMutableBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                for y in 0..<h {
                    for x in 0..<w {
                        let i = y * w + x
                        if selected[Int(labels[i])] {
                            x0 = min(x0, x)
                            x1 = max(x1, x)
                            y0 = min(y0, y)
                            y1 = max(y1, y)
                        } else {
                            bytes[i * 3] = 0
                            bytes[i * 3 + 1] = 0
                            bytes[i * 3 + 2] = 0
                        }
                    }
                }
            }
        }
        let masked = try VisionImage(pixels: PixelBuffer(data: rgb, width: w, height: h, format: .rgb8))
        guard croppedToInstancesExtent, x1 >= x0, y1 >= y0 else { return masked }
        let rect = NormalizedRect(
            x: Double(x0) / Double(w), y: 1 - Double(y1 + 1) / Double(h),
            width: Double(x1 - x0 + 1) / Double(w), height: Double(y1 - y0 + 1) / Double(h))
        return try masked.cropped(to: rect)
    }

    /// Which labels (0...255) are selected; background (0) never is.
    private func selection(_ instances: IndexSet) throws(VisionError) -> [Bool] {
        let available = allInstances
        if let bad = instances.first(where: { !available.contains($0) }) {
            throw VisionError(
                .invalidArgument,
                "instance \(bad) is not in the mask (instances: \(available.map(String.init).joined(separator: ", ")))")
        }
        var selected = [Bool](repeating: false, count: 256)
        for i in instances { selected[i] = true }
        return selected
    }

    /// How many pixels each instance covers, by instance number.
    public var pixelCounts: [Int: Int] {
        var counts = [Int](repeating: 0, count: 256)
        instanceMask.withUnsafeBufferPointer { v in for x in v { counts[Int(x)] += 1 } }
        return Dictionary(uniqueKeysWithValues: (1..<256).filter { counts[$0] > 0 }.map { ($0, counts[$0]) })
    }
}
