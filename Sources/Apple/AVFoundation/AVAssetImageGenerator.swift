import Foundation
import OpenVision

/// Makes still images from an asset's video track at given times (AVFoundation's `AVAssetImageGenerator`), over
/// OpenVision's video decoding: each request decodes the file from its start up to the frame wanted (the decoder here
/// cannot seek), so `images(for:)` with many times costs one pass, and single requests one pass each.
///
/// The image for a time is always the frame shown at that time (the last frame whose presentation time is not after
/// it; the first frame for a time before it), decoded exactly, whatever the tolerances allow. `actualTime` is that
/// frame's presentation time, moved to within `requestedTimeToleranceBefore` / `requestedTimeToleranceAfter` of the
/// requested time when it lies outside them (with zero tolerances it is the requested time, as Apple's).
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// The asset images are made from.
    public let asset: AVAsset
    private let lock = NSLock()
    private var applies = false
    private var largest = CGSize.zero
    private var before = CMTime.positiveInfinity
    private var after = CMTime.positiveInfinity

    /// A generator of `asset`'s images.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// Whether images are turned by the track's `preferredTransform` (default false). Here the decoder already
    /// applies the file's rotation, so the track's transform is the identity and images come upright either way.
    public var appliesPreferredTrackTransform: Bool {
        get { lock.withLock { applies } }
        set { lock.withLock { applies = newValue } }
    }

    /// The largest size, in pixels, of the images made (default `.zero`: the frame's own size). A frame larger than
    /// this is scaled down to fit, keeping its aspect ratio; a zero width or height leaves that side unbounded.
    public var maximumSize: CGSize {
        get { lock.withLock { largest } }
        set { lock.withLock { largest = newValue } }
    }

    /// How much earlier than the requested time `actualTime` may be (default `.positiveInfinity`; `.zero`: the
    /// frame shown at exactly that time, reported at that time).
    public var requestedTimeToleranceBefore: CMTime {
        get { lock.withLock { before } }
        set { lock.withLock { before = newValue } }
    }

    /// How much later than the requested time `actualTime` may be (default `.positiveInfinity`).
    public var requestedTimeToleranceAfter: CMTime {
        get { lock.withLock { after } }
        set { lock.withLock { after = newValue } }
    }

    /// The image at `requestedTime`, synchronously; `actualTime`, when given, receives the time of the frame used.
    /// Throws an `NSError` in `AVFoundationErrorDomain` when the asset cannot be decoded or has no frame.
    public func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let result = try generate([requestedTime])[0].get()
        actualTime?.pointee = result.actualTime
        return result.image
    }

    /// The image at `time` and the time of the frame used (Apple's async form of `copyCGImage(at:actualTime:)`).
    public func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        try generate([time])[0].get()
    }

    /// The images at `times`, in the order given, as an asynchronous sequence; the file is decoded once for all.
    public func images(for times: [CMTime]) -> Images {
        Images(generator: self, times: times)
    }

    /// The images at `times` (decoded in one pass), each a frame and its time or the error of its request.
    func generate(_ times: [CMTime]) throws -> [Result<(image: CGImage, actualTime: CMTime), Error>] {
        let (before, after, largest) = lock.withLock { (self.before, self.after, self.largest) }
        let requests = times.map { FrameRequest(time: $0, before: before, after: after) }
        guard !requests.isEmpty else { return [] }
        let capture: VideoCapture
        do {
            capture = try VideoCapture(.file(asset.location), options: CaptureOptions())
        } catch {
            throw Self.failure("cannot open \(asset.location.path) as a video", underlying: error)
        }
        var previousTime: Double?
        let fps = capture.info.fps
        do {
            while let (image, timestamp) = try capture.read() {
                let time = timestamp ?? previousTime.map { $0 + ((1...1000).contains(fps) ? 1 / fps : 0) } ?? 0
                previousTime = time
                for request in requests { request.offer(image, at: time) }
                if requests.allSatisfy(\.settled) { break }
            }
        } catch {
            throw Self.failure("cannot decode \(asset.location.path)", underlying: error)
        }
        return requests.map { request in
            guard let (image, time) = request.chosen else {
                return .failure(
                    Self.failure(
                        "no frame in \(asset.location.lastPathComponent)", underlying: nil, code: -11832))
            }
            do {
                let scaled = try Self.fitting(image, in: largest)
                return .success((CGImage(visionImage: scaled), CMTime(seconds: time, preferredTimescale: 600)))
            } catch {
                return .failure(Self.failure("cannot scale the frame", underlying: error))
            }
        }
    }

    /// `image` scaled down to fit `size` (aspect ratio kept; a zero side unbounded), or itself when it fits.
    static func fitting(_ image: VisionImage, in size: CGSize) throws(VisionError) -> VisionImage {
        let width = Double(image.width)
        let height = Double(image.height)
        var scale = 1.0
        if size.width > 0 { scale = min(scale, Double(size.width) / width) }
        if size.height > 0 { scale = min(scale, Double(size.height) / height) }
        guard scale < 1 else { return image }
        return try image.resized(
            width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
    }

    /// An `NSError` in `AVFoundationErrorDomain` (-11832: `AVError.Code.noImageAtTime`; -11800: unknown) with
    /// `underlying` as `NSUnderlyingErrorKey`.
    static func failure(_ reason: String, underlying: Error?, code: Int = -11800) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: reason]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: AVFoundationErrorDomain, code: code, userInfo: info)
    }
}

/// One requested time and the frame shown at it, as frames come in presentation order.
private final class FrameRequest {
    let time: CMTime
    private let before: Double
    private let after: Double
    /// The frame shown at the requested time so far, and its presentation time.
    private var shown: (VisionImage, Double)?
    /// True once a frame after the requested time has come: `shown` is final.
    private(set) var settled = false

    init(time: CMTime, before: CMTime, after: CMTime) {
        self.time = time
        self.before = before.isPositiveInfinity ? .infinity : max(before.seconds, 0)
        self.after = after.isPositiveInfinity ? .infinity : max(after.seconds, 0)
    }

    /// Keeps the last frame not after the requested time (the first frame when the time is before it). A frame less
    /// than a millisecond after the time counts as at it: times given at a timescale (600 here, as the times this
    /// module gives) are the presentation times rounded, up to 1/1200 s either way.
    func offer(_ image: VisionImage, at seconds: Double) {
        guard !settled else { return }
        let atOrBefore = seconds <= time.seconds + 0.001
        if atOrBefore || shown == nil { shown = (image, seconds) }
        if !atOrBefore { settled = true }
    }

    /// The frame and its actual time: its presentation time, moved to within the tolerances of the requested time
    /// when it lies outside them (the frame is shown until the next one, so it is the image at that moved time too).
    var chosen: (VisionImage, Double)? {
        guard let (image, start) = shown else { return nil }
        let requested = time.seconds
        return (image, min(max(start, requested - before), requested + after))
    }
}
