import Foundation

/// An image-valued result, as Vision's `PixelBufferObservation`: `height` rows of `width` pixels of
/// `channels` interleaved Float32 values (row-major, top row first), such as a saliency heat map
/// (1 channel, 0...1) or an optical-flow field (2 channels, pixels).
///
/// The values are held once; `values` and `withUnsafeBufferPointer(_:)` reach them without copying.
public struct PixelBufferObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// What the values are (e.g. "saliency"), if the producer names them.
    public var featureName: String?
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Values per pixel, interleaved.
    public let channels: Int
    /// The values: `height × width × channels` Float32s, row-major, channels interleaved.
    public let values: [Float]

    /// Wraps `values` (taken as is: `height × width × channels` Float32s, row-major, channels interleaved).
    /// Throws `invalidArgument` when a dimension is not positive or the count does not match.
    public init(
        width: Int, height: Int, channels: Int = 1, values: [Float], featureName: String? = nil,
        confidence: Float = 1, uuid: UUID = UUID()
    ) throws(VisionError) {
        guard width > 0, height > 0, channels > 0 else {
            throw VisionError(.invalidArgument, "pixel buffer size \(width)×\(height)×\(channels) must be positive")
        }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (count, o2) = pixels.multipliedReportingOverflow(by: channels)
        guard !o1, !o2, count == values.count else {
            throw VisionError(.invalidArgument, "\(values.count) values do not fill \(width)×\(height)×\(channels)")
        }
        self.uuid = uuid
        self.confidence = confidence
        self.featureName = featureName
        self.width = width
        self.height = height
        self.channels = channels
        self.values = values
    }

    /// Builds the values from 8-bit data (`height × width × channels` bytes, row-major), each byte / 255.
    public init(
        width: Int, height: Int, channels: Int = 1, bytes: [UInt8], featureName: String? = nil,
        uuid: UUID = UUID()
    ) throws(VisionError) {
        try self.init(
            width: width, height: height, channels: channels, values: bytes.map { Float($0) / 255 },
            featureName: featureName, uuid: uuid)
    }

    /// Calls `body` with the values in place (no copy); the pointer is valid only inside `body`.
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Float>) throws(E) -> R) throws(E) -> R
    {
        try values.withUnsafeBufferPointer { buffer throws(E) -> R in try body(buffer) }
    }

    /// The value at column `x`, row `y` (top row 0), channel `channel`.
    public subscript(x: Int, y: Int, channel: Int = 0) -> Float {
        precondition(
            x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < channels,
            "pixel (\(x), \(y), \(channel)) outside \(width)×\(height)×\(channels)")
        return values[(y * width + x) * channels + channel]
    }

    /// The value at a normalised point (lower-left origin, as observations), nearest pixel, channel `channel`.
    public func value(at point: NormalizedPoint, channel: Int = 0) -> Float {
        let x = min(width - 1, max(0, Int(point.x * Double(width))))
        let y = min(height - 1, max(0, Int((1 - point.y) * Double(height))))
        return self[x, y, channel]
    }

    /// The values as an 8-bit image: `range` (default 0...1) maps to 0...255, clamped. One channel gives a
    /// gray image, three RGB, four RGBA (alpha dropped); other channel counts throw `unsupported`.
    public func makeImage(range: ClosedRange<Float> = 0...1) throws(VisionError) -> VisionImage {
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default:
            throw VisionError(
                .unsupported, "a \(channels)-channel pixel buffer has no direct image form (1, 3 or 4 channels)")
        }
        let span = range.upperBound - range.lowerBound
        guard span > 0, span.isFinite else {
            throw VisionError(.invalidArgument, "range \(range) must be finite and non-empty")
        }
        let scale = 255 / span
        let low = range.lowerBound
        var bytes = [UInt8](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { src in
            for i in 0..<src.count {
                let v = (src[i] - low) * scale
                bytes[i] = v.isNaN ? 0 : UInt8(min(255, max(0, v.rounded())))
            }
        }
        return try VisionImage(pixels: PixelBuffer(data: Data(bytes), width: width, height: height, format: format))
    }

    /// PNG bytes of `makeImage(range:)`.
    public func pngData(range: ClosedRange<Float> = 0...1) throws(VisionError) -> Data {
        try makeImage(range: range).encoded(as: .png)
    }

    /// The exact values as a NumPy `.npy` file (format 1.0, little-endian Float32, shape (height, width) for
    /// one channel, else (height, width, channels)): `numpy.load` reads it back bit for bit.
    public func npyData() -> Data {
        let shape = channels == 1 ? "(\(height), \(width))" : "(\(height), \(width), \(channels))"
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': \(shape), }"
        // Magic (6) + version (2) + length (2) + header, padded with spaces and ended by "\n" to a multiple of 64.
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xff), UInt8(length >> 8)])
        data.append(contentsOf: Array(header.utf8))
        #if _endian(little)
            values.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        #endif
        return data
    }

    /// Writes `npyData()` to `url`.
    public func writeNPY(to url: URL) throws(VisionError) {
        do {
            try npyData().write(to: url, options: .atomic)
        } catch {
            throw VisionError(.ioError, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}
